@testable import MoaSolver
import XCTest

/// `RankQueue`, the bitset (with a summary of its non-empty words) by which `Tableau.evaluate` takes passive
/// rows in rank order: against a sorted set, over rounds that reuse it, with places sparse and far apart (a few
/// rows of a large layout), dense runs that empty whole words, duplicates, and places inserted while it is
/// being emptied (above the last taken, as a row's dependants are).
final class RankQueueTests: XCTestCase {
    func testEmptiesInIncreasingOrderAgainstASortedSet() {
        var rng = SplitMix(state: 41)
        var queue = RankQueue()
        queue.reserve(places: 1 << 12)   // smaller than the places used below: inserts grow it too
        for round in 0..<300 {
            let span = [64, 4_096, 300_000, 5_000_000][round % 4]
            var expected = Set<Int>()
            for _ in 0..<rng.int(40) {
                let p = rng.int(span)
                if rng.chance(0.3) {
                    for q in p..<min(span, p + 130) { expected.insert(q); queue.insert(q) }   // whole words
                } else {
                    expected.insert(p); queue.insert(p); queue.insert(p)
                }
            }
            var taken: [Int] = []
            while let p = queue.popFirst() {
                taken.append(p)
                XCTAssertNotNil(expected.remove(p), "round \(round): \(p) taken but not inserted, or twice")
                // Dependants: above the one just taken, sometimes in the same word, sometimes far above.
                if rng.chance(0.2) {
                    let q = p + 1 + (rng.chance(0.5) ? rng.int(63) : rng.int(span))
                    expected.insert(q); queue.insert(q)
                }
            }
            XCTAssertEqual(taken, taken.sorted(), "round \(round): not in increasing order")
            XCTAssertTrue(expected.isEmpty, "round \(round): \(expected.count) places never taken")
            XCTAssertNil(queue.popFirst(), "round \(round): empty stays empty")
        }
    }
}
