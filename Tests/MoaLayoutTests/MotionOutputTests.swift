import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MoaLayout
import XCTest

/// Frames out: snapshots, CSV and JSON traces, SVG pictures and strips — well-formed, parseable, complete.
final class MotionOutputTests: XCTestCase {
    /// A sidebar beside the content, a title inside the content (also the inspector's scene).
    static func makeScene() throws -> (Layout, Collapsible) {
        let layout = try Layout(width: 320, height: 480)
        let sidebar = try layout.addView("sidebar")
        try layout.addView("content")
        try layout.addView("title", in: layout["content"]!)
        let cs = try layout.eqs(MotionAnimatorTests.sidebarEquations + """

            title.left == content.left + 8
            title.top == content.top + 20
            title.size == 100x30
            title.width >= 50 @ 250
            """)
        return (layout, try layout.collapsible(sidebar, constraint: cs[0], direction: .left))
    }

    func testSnapshot() throws {
        let (layout, _) = try Self.makeScene()
        let s = layout.snapshot()
        XCTAssertEqual(s.views.map(\.name), ["root", "sidebar", "content", "title"])
        XCTAssertEqual(s.views.map(\.depth), [0, 1, 1, 2])
        XCTAssertEqual(s.views.map(\.superview), [nil, "root", "root", "content"])
        XCTAssertEqual(s["title"]?.frame, Rect(x: 8, y: 20, width: 100, height: 30))
        XCTAssertEqual(s["title"]?.frameInRoot, Rect(x: 208, y: 20, width: 100, height: 30))
        let g = layout.snapshot(includeGuides: true)
        XCTAssertEqual(g.views.map(\.name), ["root", "safeArea", "margins", "keyboard", "sidebar", "content", "title"])
        XCTAssertEqual(g["keyboard"]?.isGuide, true)
    }

    /// The collapse sampled at 20 fps from 0 to 0.3 s: 7 samples; CSV has a header and one line per view per
    /// sample, every numeric field parses; JSON parses and holds the same numbers.
    func testTraceCSVAndJSON() throws {
        let (layout, sidebar) = try Self.makeScene()
        try sidebar.collapse(duration: 0.3, curve: .easeInOut)
        let trace = try layout.animator.trace(from: 0, to: 0.3, fps: 20)
        XCTAssertEqual(trace.snapshots.map(\.time), (0...6).map { Double($0) / 20 })
        XCTAssertEqual(trace.snapshot(at: 0.15)?["sidebar"]?.frame.x ?? 0, -100, accuracy: 1e-6)
        XCTAssertEqual(trace.track(of: "sidebar").last?.frameInRoot.x, -200)

        let csv = trace.csv()
        let lines = csv.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.first, "time,view,superview,x,y,width,height,rootX,rootY")
        XCTAssertEqual(lines.last, "", "ends with a newline")
        let rows = lines.dropFirst().filter { !$0.isEmpty }
        XCTAssertEqual(rows.count, 7 * 4)
        for row in rows {
            let f = row.split(separator: ",", omittingEmptySubsequences: false)
            XCTAssertEqual(f.count, 9)
            for i in [0, 3, 4, 5, 6, 7, 8] { XCTAssertNotNil(Double(String(f[i])), "\(row)") }
        }
        XCTAssertTrue(csv.contains("\n0.15,sidebar,root,-100,0,200,480,-100,0\n"))
        XCTAssertTrue(csv.contains("\n0.15,title,content,8,20,100,30,108,20\n"))
        XCTAssertTrue(csv.contains("\n0,root,,0,0,320,480,0,0\n"))

        let json = trace.json()
        let obj = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let frames = try XCTUnwrap(obj?["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.count, 7)
        XCTAssertEqual((frames[3]["time"] as? NSNumber)?.doubleValue, 0.15)
        let views = try XCTUnwrap(frames[3]["views"] as? [[String: Any]])
        XCTAssertEqual(views.count, 4)
        XCTAssertEqual(views[1]["name"] as? String, "sidebar")
        XCTAssertEqual(views[1]["superview"] as? String, "root")
        XCTAssertTrue(views[0]["superview"] is NSNull)
        let frame = try XCTUnwrap(views[1]["frame"] as? [String: NSNumber])
        XCTAssertEqual(frame["x"]?.doubleValue, -100)
        XCTAssertEqual(frame["width"]?.doubleValue, 200)
        let root = try XCTUnwrap(views[3]["rootFrame"] as? [String: NSNumber])
        XCTAssertEqual(root["x"]?.doubleValue, 108)
    }

    /// Recording as the clock advances gives the same frames as sampling.
    func testRecording() throws {
        let (layout, sidebar) = try Self.makeScene()
        layout.animator.startRecording()
        XCTAssertTrue(layout.animator.isRecording)
        try sidebar.collapse()
        for _ in 0..<6 { try layout.animator.advance(by: 0.05) }
        let recorded = layout.animator.stopRecording()
        XCTAssertFalse(layout.animator.isRecording)
        XCTAssertEqual(recorded.snapshots.count, 7)
        let (layout2, sidebar2) = try Self.makeScene()
        try sidebar2.collapse()
        let sampled = try layout2.animator.trace(from: 0, to: 0.3, fps: 20)
        for (a, b) in zip(recorded.snapshots, sampled.snapshots) {
            XCTAssertEqual(a.time, b.time, accuracy: 1e-12)
            for (u, v) in zip(a.views, b.views) {
                XCTAssertTrue(u.frame.isClose(to: v.frame, tolerance: 1e-9), "\(u.name) at \(a.time)")
            }
        }
    }

    /// An SVG of the layout: well-formed XML, one `<rect>` per view (root included) nested by hierarchy, a
    /// label per view, and with constraints one line per equation between two items.
    func testLayoutSVG() throws {
        let (layout, _) = try Self.makeScene()
        let svg = layout.svg()
        XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        let doc = try parseXML(svg)
        XCTAssertEqual(doc.count("rect"), 4 + 1)   // and the screen's outline
        XCTAssertTrue(svg.contains("<rect class=\"screen\" x=\"0\" y=\"0\" width=\"320\" height=\"480\""))
        XCTAssertFalse(svg.contains("class=\"offscreen\""), "nothing is off screen")
        XCTAssertEqual(doc.texts, ["root", "sidebar", "content", "title"])
        XCTAssertEqual(doc.count("line"), 0)
        // title's group sits inside content's group inside root's.
        XCTAssertEqual(doc.groupPath["title"], ["root", "content", "title"])
        XCTAssertTrue(svg.contains("<g data-view=\"title\" transform=\"translate(8,20)\">"))
        XCTAssertTrue(svg.contains("viewBox=\"-10 -10 340 500\""))

        let withLines = layout.svg(SVGOptions(includeGuides: true, showConstraints: true))
        let doc2 = try parseXML(withLines)
        XCTAssertEqual(doc2.count("rect"), 7 + 1)
        // Equations with a second item: 7 of the sidebar's 8 (not `sidebar.width == 200`), title.left, title.top.
        XCTAssertEqual(doc2.count("line"), 9)
        XCTAssertTrue(withLines.contains("<title>title.left == content.left + 8</title>"))
        // content.left == sidebar.right: from (200, 240) to (200, 240).
        XCTAssertTrue(withLines.contains("x1=\"200\" y1=\"240\" x2=\"200\" y2=\"240\""))
    }

    /// A strip of the collapse: one nested frame per sample with a time label, one rect per view per frame,
    /// and the collapsed sidebar still inside the shared viewBox.
    func testStripSVG() throws {
        let (layout, sidebar) = try Self.makeScene()
        try sidebar.collapse()
        let trace = try layout.animator.trace(from: 0, to: 0.3, fps: 10)
        XCTAssertEqual(trace.snapshots.count, 4)
        let strip = trace.stripSVG(SVGOptions(scale: 0.5, columns: 2))
        let doc = try parseXML(strip)
        XCTAssertEqual(doc.count("svg"), 5)
        XCTAssertEqual(doc.count("rect"), 4 * (4 + 1))   // views and the screen, per frame
        // The collapsing sidebar leaves the screen: what is off it is veiled in every frame after the first.
        XCTAssertEqual(strip.components(separatedBy: "class=\"offscreen\"").count - 1, 3)
        for label in ["t = 0 s", "t = 0.1 s", "t = 0.2 s", "t = 0.3 s"] { XCTAssertTrue(doc.texts.contains(label), label) }
        // Bounds: x from -200 (collapsed sidebar) to 320, y 0...480, plus 10 around.
        XCTAssertTrue(strip.contains("viewBox=\"-210 -10 540 500\""))
        XCTAssertEqual(trace.snapshots[0].svg().components(separatedBy: "<rect").count - 1, 4 + 1)
        // Without columns, as many frames a row as fit in 1,200 pixels: 540-wide cells, two a row.
        let wide = trace.stripSVG()
        XCTAssertTrue(wide.contains("translate(560,10)"), "the second frame in the first row")
        XCTAssertTrue(wide.contains("translate(10,536)"), "the third frame starts the second row")
    }

    /// Labels do not sit on each other: a child at its superview's top-left gets its label a line lower, a
    /// short one to the right of the label in the way.
    func testLabelsDoNotOverlap() throws {
        let L = try Layout(width: 300, height: 200)
        try L.addView("panel")
        try L.addView("tall", in: L["panel"])
        try L.addView("flat", in: L["tall"])
        try L.eqs("""
            panel.left == 0
            panel.top == 0
            panel.width == 300
            panel.height == 200
            tall.left == 0
            tall.top == 0
            tall.width == 300
            tall.height == 100
            flat.left == 0
            flat.top == 0
            flat.width == 300
            flat.height == 14
            """)
        let svg = L.svg()
        XCTAssertTrue(svg.contains(">panel</text>"))
        XCTAssertTrue(svg.contains("<text x=\"3\" y=\"11\" fill=\"#000000\">root</text>"))
        // panel sits on root's label: one line down; tall on both: two lines down.
        XCTAssertTrue(svg.contains("<text x=\"3\" y=\"22\" fill=\"#000000\">panel</text>"), svg)
        XCTAssertTrue(svg.contains("<text x=\"3\" y=\"33\" fill=\"#000000\">tall</text>"), svg)
        // flat is one line high: to the right of the label in the way (root's, 4 letters).
        XCTAssertTrue(svg.contains(">flat</text>"))
        XCTAssertFalse(svg.contains("<text x=\"3\" y=\"11\" fill=\"#000000\">flat</text>"), svg)
    }

    // MARK: - A small XML reader for the checks

    struct XMLSummary {
        var elements: [String] = []
        var texts: [String] = []
        var groupPath: [String: [String]] = [:]
        func count(_ name: String) -> Int { elements.filter { $0 == name }.count }
    }

    final class Collector: NSObject, XMLParserDelegate {
        var summary = XMLSummary()
        var groups: [String] = []
        var groupIsView: [Bool] = []
        var text: String?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            summary.elements.append(name)
            if name == "g" {
                if let v = attributes["data-view"] {
                    groups.append(v)
                    summary.groupPath[v] = groups
                    groupIsView.append(true)
                } else {
                    groupIsView.append(false)
                }
            }
            if name == "text" { text = "" }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text? += string }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "g", groupIsView.removeLast() { groups.removeLast() }
            if name == "text", let t = text { summary.texts.append(t); text = nil }
        }
    }

    func parseXML(_ s: String, file: StaticString = #filePath, line: UInt = #line) throws -> XMLSummary {
        let parser = XMLParser(data: Data(s.utf8))
        let c = Collector()
        parser.delegate = c
        let ok = parser.parse()
        XCTAssertTrue(ok, "not well-formed: \(String(describing: parser.parserError))", file: file, line: line)
        return c.summary
    }
}
