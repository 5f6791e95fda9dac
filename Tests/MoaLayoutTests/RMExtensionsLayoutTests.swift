import MoaLayout
import Testing
import XCTest

/// Both layouts of the RMExtensions README (joenoon/rm-extensions, "Equation-style AutoLayout Constraints"),
/// solved at a given root size and intrinsic sizes, against frames worked out by hand.
final class RMExtensionsLayoutTests: XCTestCase {
    static let calendarEquations = """
        calendar.left == 0
        calendar.right == 0
        table.left == 7
        table.right == -7
        shadow.left == 0
        shadow.right == 0

        calendar.top == 0
        table.top == calendar.bottom
        table.bottom == 0
        shadow.top == table.top
        """

    func makeCalendar() throws -> (Layout, LayoutConstraint) {
        let layout = try Layout(width: 320, height: 480)
        for name in ["calendar", "table", "shadow"] { try layout.addView(name) }
        // The shadow is a stretchable 1 x 3 image: only its height comes from its content.
        try layout["shadow"]!.setIntrinsicSize(width: nil, height: 3)
        let hs = try layout.eqs(Self.calendarEquations)
        XCTAssertEqual(hs.count, 10)
        let height = try layout.eq("calendar.height == 0")
        return (layout, height)
    }

    /// Root 320 x 480.
    /// - calendar: left == 0, right == 0 → x 0, w 320; top == 0; height == 0 → (0, 0, 320, 0).
    /// - table: left == 7, right == -7 → x 7, w 320 - 14 = 306; top == calendar.bottom = 0,
    ///   bottom == 480 → h 480 → (7, 0, 306, 480).
    /// - shadow: left/right == 0 → (0, ·, 320, ·); top == table.top = 0; intrinsic height 3 with
    ///   hugging 250 and compression 750, nothing else on its height → 3 → (0, 0, 320, 3).
    /// Then calendar.height := 200: calendar (0, 0, 320, 200), table top 200, height 480 - 200 = 280,
    /// shadow top 200.
    /// Rotated to 480 x 320: calendar (0, 0, 480, 200), table (7, 200, 480 - 14 = 466, 320 - 200 = 120),
    /// shadow (0, 200, 480, 3).
    func testCalendarScreen() throws {
        let (layout, height) = try makeCalendar()
        let changed = try layout.solve()
        XCTAssertEqual(changed.map(\.name), ["root", "calendar", "table", "shadow"])
        assertFrame(layout["calendar"], 0, 0, 320, 0)
        assertFrame(layout["table"], 7, 0, 306, 480)
        assertFrame(layout["shadow"], 0, 0, 320, 3)
        XCTAssertTrue(layout.ambiguities().isEmpty, "\(layout.ambiguities())")

        try height.setConstant(200)
        XCTAssertEqual(try layout.layoutIfNeeded().map(\.name), ["calendar", "table", "shadow"])
        assertFrame(layout["calendar"], 0, 0, 320, 200)
        assertFrame(layout["table"], 7, 200, 306, 280)
        assertFrame(layout["shadow"], 0, 200, 320, 3)
        XCTAssertEqual(try layout.layoutIfNeeded().count, 0, "nothing changed since the last solve")

        try layout.setRootSize(width: 480, height: 320)
        XCTAssertEqual(try layout.solve().map(\.name), ["root", "calendar", "table", "shadow"])
        assertFrame(layout.root, 0, 0, 480, 320)
        assertFrame(layout["calendar"], 0, 0, 480, 200)
        assertFrame(layout["table"], 7, 200, 466, 120)
        assertFrame(layout["shadow"], 0, 200, 480, 3)
    }

    /// The README's second layout: a planner row (a table cell) with nine subviews.
    static let plannerEquations = """
        unreadImage.left == 6
        unreadImage.top == 6
        plannerImage.left == 14
        plannerImage.centerY == 0
        plannerImage.width == 30
        plannerImage.height == 30
        trackingImage.left == timeLabel.right + 5
        inOutStatusOutImage.left == trackingImage.right + 5
        inOutStatusInImage.left == inOutStatusOutImage.right + 5
        timeLabel.left == plannerImage.right + 5
        timeLabel.baseline == plannerImage.bottom + 1
        trackingImage.centerY == timeLabel.centerY
        inOutStatusOutImage.centerY == timeLabel.centerY
        inOutStatusInImage.centerY == timeLabel.centerY
        titleLabel.left == cancelledLabel.right
        cancelledLabel.left == plannerImage.right + 5
        titleLabel.top == plannerImage.top - 4
        cancelledLabel.centerY == titleLabel.centerY
        shareButton.right == -10
        shareButton.centerY == 0
        titleLabel.resistH == low
        shareButton.left >= titleLabel.right + 5
        timeLabel.resistH == low
        shareButton.left >= inOutStatusInImage.right + 5
        """

    static let plannerViews = ["timeLabel", "titleLabel", "trackingImage", "inOutStatusInImage",
                               "inOutStatusOutImage", "plannerImage", "shareButton", "cancelledLabel", "unreadImage"]

    /// Intrinsic sizes: unreadImage 8 x 8; timeLabel 200 x 15 with its baseline 12 below its top; the three
    /// status images 12 x 12; titleLabel 250 x 20; cancelledLabel 70 x 16; shareButton 44 x 44. plannerImage
    /// has none (30 x 30 by constraints).
    func makePlanner(_ equations: String = plannerEquations, width: Double = 320) throws -> Layout {
        let layout = try Layout(width: width, height: 60)
        for name in Self.plannerViews { try layout.addView(name) }
        try layout["unreadImage"]!.setIntrinsicSize(width: 8, height: 8)
        try layout["timeLabel"]!.setIntrinsicSize(width: 200, height: 15)
        try layout["timeLabel"]!.setBaselineOffset(12)
        for name in ["trackingImage", "inOutStatusOutImage", "inOutStatusInImage"] {
            try layout[name]!.setIntrinsicSize(width: 12, height: 12)
        }
        try layout["titleLabel"]!.setIntrinsicSize(width: 250, height: 20)
        try layout["cancelledLabel"]!.setIntrinsicSize(width: 70, height: 16)
        try layout["shareButton"]!.setIntrinsicSize(width: 44, height: 44)
        try layout.eqs(equations)
        try layout.solve()
        return layout
    }

    /// Root (the cell) 320 x 60.
    /// - unreadImage: left 6, top 6, intrinsic 8 x 8 → (6, 6, 8, 8).
    /// - plannerImage: left 14, 30 x 30, centerY == 60/2 = 30 → top 15 → (14, 15, 30, 30); right 44, bottom 45.
    /// - shareButton: intrinsic 44 x 44; right == 320 - 10 = 310 → left 266; centerY 30 → top 8
    ///   → (266, 8, 44, 44).
    /// - timeLabel: left == 44 + 5 = 49; baseline (top + 12) == 45 + 1 = 46 → top 34; height 15.
    ///   Its row: 49 + w + 5 + 12 + 5 + 12 + 5 + 12 = inOutStatusInImage.right <= 266 - 5 = 261 → w <= 161.
    ///   The images resist compression at 750, timeLabel only at 250 (`resistH == low`), so timeLabel gives:
    ///   w = 161 (its compression constraint is off by 200 - 161 = 39) → (49, 34, 161, 15); centerY 41.5.
    /// - trackingImage: left 49 + 161 + 5 = 215, centerY 41.5 → top 35.5 → (215, 35.5, 12, 12);
    ///   inOutStatusOutImage (232, 35.5, 12, 12); inOutStatusInImage (249, 35.5, 12, 12), right 261.
    /// - cancelledLabel: left 49, width 70 (compression 750) → right 119.
    /// - titleLabel: left 119, top == 15 - 4 = 11, height 20 → centerY 21; right <= 261 → width <= 142;
    ///   it resists at 250 only → w = 142 (off by 108) → (119, 11, 142, 20).
    /// - cancelledLabel: centerY 21, height 16 → top 13 → (49, 13, 70, 16).
    func testPlannerRow() throws {
        let layout = try makePlanner()
        assertFrame(layout["unreadImage"], 6, 6, 8, 8)
        assertFrame(layout["plannerImage"], 14, 15, 30, 30)
        assertFrame(layout["shareButton"], 266, 8, 44, 44)
        assertFrame(layout["timeLabel"], 49, 34, 161, 15)
        assertFrame(layout["trackingImage"], 215, 35.5, 12, 12)
        assertFrame(layout["inOutStatusOutImage"], 232, 35.5, 12, 12)
        assertFrame(layout["inOutStatusInImage"], 249, 35.5, 12, 12)
        assertFrame(layout["cancelledLabel"], 49, 13, 70, 16)
        assertFrame(layout["titleLabel"], 119, 11, 142, 20)
        XCTAssertTrue(layout.ambiguities().isEmpty, "\(layout.ambiguities())")

        // The solver gave up exactly the two low compression resistances, by 39 and 108 (same priority: in
        // creation order).
        let given = layout.violatedConstraints()
        XCTAssertEqual(given.map(\.constraint.description), ["timeLabel.width >= 200 @ 250", "titleLabel.width >= 250 @ 250"])
        XCTAssertEqual(given.map(\.amount), [39, 108])
        XCTAssertEqual(given[1].description,
                       "`titleLabel.width >= 250 @ 250` (compression resistance of titleLabel's intrinsic width) is off by 108")

        // A wider cell (400): shareButton left 346 → rows may reach 341: timeLabel 241 > 200 → it hugs at 200
        // (hugging 250 and nothing pulls it wider); titleLabel 341 - 119 = 222 < 250 → 222.
        try layout.setRootSize(width: 400, height: 60)
        try layout.solve()
        assertFrame(layout["shareButton"], 346, 8, 44, 44)
        assertFrame(layout["timeLabel"], 49, 34, 200, 15)
        assertFrame(layout["titleLabel"], 119, 11, 222, 20)
    }

    /// The planner row written with leading/trailing mirrors under right-to-left: every frame becomes
    /// (W - x - w, y, w, h). Left-to-right it equals the original.
    func testPlannerRowRightToLeftIsMirrored() throws {
        let directional = Self.plannerEquations
            .replacingAll(".left", with: ".leading").replacingAll(".right", with: ".trailing")
        let ltr = try makePlanner()
        let ltr2 = try makePlanner(directional)
        for name in Self.plannerViews {
            XCTAssertEqual(ltr[name]!.frame, ltr2[name]!.frame, name)
        }

        let mirrored = try makePlanner(directional)
        try mirrored.root.setLayoutDirection(.rightToLeft)
        try mirrored.solve()
        for name in Self.plannerViews {
            let f = ltr[name]!.frame
            assertFrame(mirrored[name], 320 - f.x - f.width, f.y, f.width, f.height)
        }
        // And back.
        try mirrored.root.setLayoutDirection(.leftToRight)
        try mirrored.solve()
        for name in Self.plannerViews { XCTAssertEqual(mirrored[name]!.frame, ltr[name]!.frame, name) }
    }

    /// The calendar screen written with leading/trailing, right-to-left from the start: table sits 7 in from
    /// both sides either way, so it is its own mirror; an asymmetric inset (leading 7, trailing -20) mirrors:
    /// LTR table x 7, width 320 - 27 = 293; RTL x = 320 - 7 - 293 = 20.
    func testCalendarScreenRightToLeftFromTheStart() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.root.setLayoutDirection(.rightToLeft)
        for name in ["calendar", "table", "shadow"] { try layout.addView(name) }
        try layout["shadow"]!.setIntrinsicSize(width: nil, height: 3)
        try layout.eqs(Self.calendarEquations
            .replacingAll(".left", with: ".leading").replacingAll(".right", with: ".trailing")
            .replacingAll("table.trailing == -7", with: "table.trailing == -20"))
        try layout.eq("calendar.height == 200")
        try layout.solve()
        assertFrame(layout["calendar"], 0, 0, 320, 200)
        assertFrame(layout["table"], 20, 200, 293, 280)
        assertFrame(layout["shadow"], 0, 200, 320, 3)
        try layout.root.setLayoutDirection(.leftToRight)
        try layout.solve()
        assertFrame(layout["table"], 7, 200, 293, 280)
    }
}

extension String {
    func replacingAll(_ a: String, with b: String) -> String {
        split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
    }
}

@Test func swiftTestingSeesTheLayout() throws {
    let layout = try Layout(width: 100, height: 50)
    try layout.addView("box")
    try layout.eqs("box.pin == 10")
    try layout.solve()
    #expect(layout["box"]!.frame == Rect(x: 10, y: 10, width: 80, height: 30))
}
