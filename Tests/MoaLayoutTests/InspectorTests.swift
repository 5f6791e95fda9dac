import Foundation
import MoaLayout
import XCTest

/// The inspector page: its data block parses as JSON and holds every view's frames, every constraint touching
/// each view with its line, the diagnostics and the recorded trace; names cannot end the data block early.
final class InspectorTests: XCTestCase {
    /// The JSON object embedded in the page's `<script id="moa-data">` block.
    func pageData(_ page: String) throws -> [String: Any] {
        let open = try XCTUnwrap(page.range(of: "<script id=\"moa-data\" type=\"application/json\">"))
        let close = try XCTUnwrap(page.range(of: "</script>", range: open.upperBound..<page.endIndex))
        let json = String(page[open.upperBound..<close.lowerBound])
        XCTAssertFalse(json.contains("__MOA_DATA__"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    func testViewsConstraintsAndDiagnostics() throws {
        let (layout, _) = try MotionOutputTests.makeScene()
        try layout.addView("loose")   // no constraints: ambiguous
        try layout.eqs("title.width == 300 @ 250", source: "scene.moa")   // given up: title.width == 100 holds
        XCTAssertThrowsError(try layout.eq("sidebar.right == 100"))        // a conflict, recorded
        let page = layout.html(title: "scene")
        XCTAssertTrue(page.hasPrefix("<!doctype html>") || page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertFalse(page.contains("http://") || page.contains("https://"), "the page must not reach the network")
        let data = try pageData(page)
        XCTAssertEqual(data["title"] as? String, "scene")

        let views = try XCTUnwrap(data["views"] as? [[String: Any]])
        XCTAssertEqual(views.first?["name"] as? String, "root")
        XCTAssertTrue(views.contains { $0["name"] as? String == "safeArea" && $0["kind"] as? String == "guide" })
        let title = try XCTUnwrap(views.first { $0["name"] as? String == "title" })
        XCTAssertEqual(title["superview"] as? String, "content")
        XCTAssertEqual(title["frame"] as? [Double], [8, 20, 100, 30])
        XCTAssertEqual(title["rootFrame"] as? [Double], [208, 20, 100, 30])

        // Every constraint touching `title`, by id, with its equation text and line.
        let constraints = try XCTUnwrap(data["constraints"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: constraints.map { ($0["id"] as! Int, $0) })
        let ids = try XCTUnwrap(title["constraints"] as? [Int])
        let expected = layout.constraints(affecting: layout["title"]!).map(\.id)
        XCTAssertEqual(Set(ids), Set(expected))
        let equations = ids.compactMap { byID[$0]?["equation"] as? String }
        XCTAssertTrue(equations.contains("title.left == content.left + 8"))
        let soft = try XCTUnwrap(constraints.first { $0["equation"] as? String == "title.width == 300 @ 250" })
        XCTAssertEqual(soft["line"] as? Int, 1)
        XCTAssertEqual(soft["source"] as? String, "scene.moa")
        XCTAssertEqual(soft["violation"] as? Double, 200)

        let violations = try XCTUnwrap(data["violations"] as? [[String: Any]])
        XCTAssertTrue(violations.contains { $0["constraint"] as? Int == soft["id"] as? Int && $0["amount"] as? Double == 200 })
        let ambiguities = try XCTUnwrap(data["ambiguities"] as? [[String: Any]])
        XCTAssertEqual(Set(ambiguities.compactMap { $0["view"] as? String }), ["loose"])
        let conflicts = try XCTUnwrap(data["conflicts"] as? [[String: Any]])
        XCTAssertEqual(conflicts.count, 1)
        XCTAssertEqual(conflicts.first?["equation"] as? String, "sidebar.right == root.right + 100")
        let with = try XCTUnwrap(conflicts.first?["with"] as? [[String: Any]])
        XCTAssertTrue(with.contains { $0["equation"] as? String == "sidebar.width == 200" })
        XCTAssertEqual((data["trace"] as? [Any])?.count, 0)
    }

    /// A recorded collapse: every snapshot in the page, the sidebar moving from 0 to -200.
    func testTrace() throws {
        let (layout, collapsible) = try MotionOutputTests.makeScene()
        layout.animator.startRecording()
        try collapsible.collapse(duration: 0.3)
        _ = try layout.animator.runUntilIdle(fps: 60)
        let trace = layout.animator.stopRecording()
        XCTAssertGreaterThan(trace.snapshots.count, 10)
        let data = try pageData(layout.html(trace: trace))
        let snaps = try XCTUnwrap(data["trace"] as? [[String: Any]])
        XCTAssertEqual(snaps.count, trace.snapshots.count)
        func sidebarX(_ s: [String: Any]) -> Double? {
            ((s["frames"] as? [[String: Any]])?.first { $0["name"] as? String == "sidebar" }?["rootFrame"] as? [Double])?[0]
        }
        XCTAssertEqual(sidebarX(snaps.first!), 0)
        XCTAssertEqual(sidebarX(snaps.last!), -200)
        let lastTime = try XCTUnwrap(snaps.last?["time"] as? Double)
        XCTAssertEqual(lastTime, trace.snapshots.last!.time, accuracy: 1e-6)
    }

    /// Names and equations are data, never markup: `</script>` in a view name cannot end the data block.
    func testHostileNames() throws {
        let layout = try Layout(width: 100, height: 100)
        let v = try layout.addView("a")
        try v.setText(TextContent("</script><script>alert(1)</script> \"quoted\" \\ back"))
        try layout.eq("a.left == 0")
        let page = layout.html(title: "</script>")
        let data = try pageData(page)
        XCTAssertEqual(data["title"] as? String, "</script>")
        let a = (data["views"] as? [[String: Any]])?.first { $0["name"] as? String == "a" }
        XCTAssertEqual(a?["text"] as? String, "</script><script>alert(1)</script> \"quoted\" \\ back")
    }
}
