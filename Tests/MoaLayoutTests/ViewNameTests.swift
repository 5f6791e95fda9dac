import MoaLayout
import XCTest

/// Views by name (the layout's name table: open addressing, entries moved back on removal): random adds and
/// removals checked against a dictionary after every step, and equations that name views found through it.
final class ViewNameTests: XCTestCase {
    func testRandomAddsAndRemovalsKeepEveryNameFindable() throws {
        let layout = try Layout(width: 800, height: 600)
        var model: [String: View] = [:]
        var rng = SystemRandomNumberGenerator()
        // Few distinct names, many steps: names come back after removal, and the table grows and empties.
        let names = (0..<300).map { i in i % 3 == 0 ? "v\(i)" : i % 3 == 1 ? "a_long_view_name_\(i)" : "n\(i)x\(i * 7)" }
        for step in 0..<6000 {
            let name = names[Int.random(in: 0..<names.count, using: &rng)]
            if let v = model[name] {
                try layout.removeView(v)
                model[name] = nil
                XCTAssertNil(layout.view(named: name), "step \(step): \(name) still found after removal")
            } else {
                model[name] = try layout.addView(name)
            }
            if step % 50 == 0 {
                for n in names { XCTAssertTrue(layout.view(named: n) === model[n], "step \(step): \(n)") }
            }
        }
        for n in names { XCTAssertTrue(layout.view(named: n) === model[n]) }
        XCTAssertEqual(layout.views.count, model.count)
        // Equations resolve through the same table.
        if let (name, _) = model.first {
            try layout.eqs("\(name).width == 40\n\(name).left == 3")
            try layout.solve()
            XCTAssertEqual(model[name]!.frame.width, 40)
        }
        XCTAssertThrowsError(try layout.eq("missing_view.width == 4"))
    }

    func testNamesThatShareLongPrefixes() throws {
        let layout = try Layout(width: 800, height: 600)
        let prefix = String(repeating: "p", count: 40)
        let views = try (0..<500).map { try layout.addView("\(prefix)\($0)") }
        for (i, v) in views.enumerated() { XCTAssertTrue(layout["\(prefix)\(i)"] === v) }
        for v in views where v.name.hasSuffix("7") { try layout.removeView(v) }
        for (i, v) in views.enumerated() {
            XCTAssertTrue(layout["\(prefix)\(i)"] === (String(i).hasSuffix("7") ? nil : v))
        }
    }
}
