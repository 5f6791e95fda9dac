@testable import MoaLayout
import XCTest

/// `Layout.matchSections`: which sections of an arrangement's last update the new ones pair with (their rules
/// are kept). Every pair must be of equal sections; with edits that move nothing (sections inserted, removed
/// or changed, several at one place), every section common to both lists is paired.
final class SectionMatchTests: XCTestCase {
    func section(_ k: Int, changed: Bool = false) -> RuleSection {
        var s = RuleSection(kind: UInt8(k % 5))
        s.index = k
        if changed { s.x = 1 }
        return s
    }

    func check(_ new: [RuleSection], _ old: [RuleSection], file: StaticString = #filePath, line: UInt = #line) {
        let (newToOld, oldMatched) = Layout.matchSections(new, old)
        var paired = 0
        for (i, m) in newToOld.enumerated() {
            guard let m else { continue }
            XCTAssertEqual(new[i], old[m], "pair \(i) -> \(m)", file: file, line: line)
            XCTAssertTrue(oldMatched[m], file: file, line: line)
            paired += 1
        }
        XCTAssertEqual(paired, Set(new).intersection(old).count, "common sections paired", file: file, line: line)
    }

    /// A view put in front of a stack: in each kind of section a new one at the front and the one after it
    /// changed (the walk found no place to resume and hashed every section).
    func testAViewPutInFront() {
        let old = (0 ..< 40).map { section($0) }
        var new: [RuleSection] = []
        for run in stride(from: 0, to: 40, by: 10) {
            new.append(section(1000 + run))
            new.append(section(run, changed: true))
            new += (run + 1 ..< run + 10).map { section($0) }
        }
        check(new, old)
    }

    func testRandomEdits() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0 ..< 300 {
            let old = (0 ..< Int.random(in: 0 ... 60, using: &rng)).map { section($0) }
            var new: [RuleSection] = []
            var fresh = 1000
            var k = 0
            while k < old.count {
                switch Int.random(in: 0 ..< 10, using: &rng) {
                case 0: k += Int.random(in: 1 ... 6, using: &rng)                    // removed
                case 1: for _ in 0 ..< Int.random(in: 1 ... 6, using: &rng) { new.append(section(fresh)); fresh += 1 }
                case 2: new.append(section(old[k].index, changed: true)); k += 1       // changed
                default: new.append(old[k]); k += 1
                }
            }
            check(new, old)
        }
    }
}
