import MoaLayout
import XCTest

/// The pan driver on the calculator scene: two 320-wide button panels side by side, `basic` on screen and
/// `advanced` to its right, both moved by the same offset; rest positions 0 (basic shown) and -320 (advanced
/// shown).
final class MotionPanTests: XCTestCase {
    func makeCalculator() throws -> (Layout, PanDriver) {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("display")
        try layout.addView("basic")
        try layout.addView("advanced")
        let cs = try layout.eqs("""
            display.left == 0
            display.right == 0
            display.top == 0
            display.height == 160
            basic.left == 0
            advanced.left == 320
            basic.width == root.width
            advanced.width == root.width
            basic.top == display.bottom
            advanced.top == display.bottom
            basic.bottom == 0
            advanced.bottom == 0
            """)
        try layout.solve()
        let pan = try PanDriver(constraints: [cs[4], cs[5]], axis: .horizontal, restPositions: [0, -320])
        return (layout, pan)
    }

    func assertOffset(_ layout: Layout, _ offset: Double, file: StaticString = #filePath, line: UInt = #line) {
        _ = try! layout.solve()
        assertFrame(layout["basic"], offset, 160, 320, 320, file: file, line: line)
        assertFrame(layout["advanced"], 320 + offset, 160, 320, 320, file: file, line: line)
    }

    /// Drag slowly left by 100 and release slowly: the panels follow the finger point by point, then snap
    /// back to 0 (nearest rest) with the default curve, easeInOut (UIKit's default), over 0.3 s. easeInOut is
    /// symmetric (halfway at half the duration), so at 0.15 s the offset is -100 + 100 · 0.5 = -50; easeOut,
    /// the old default, would be past halfway there.
    func testDragAndSlowReleaseSnapsBack() throws {
        let (layout, pan) = try makeCalculator()
        let anim = layout.animator
        var rests: [Double] = []
        pan.onRest = { rests.append($0) }
        XCTAssertTrue(try pan.began())
        XCTAssertTrue(try pan.changed(translation: -30, velocity: -100))
        assertOffset(layout, -30)
        try pan.changed(translation: -80, velocity: -150)
        assertOffset(layout, -80)
        try pan.changed(translation: -100, velocity: -50)
        assertOffset(layout, -100)
        XCTAssertEqual(pan.offset, -100)
        var reported: [String] = []
        let target = try pan.ended(velocity: -50) { reported.append("\($0) \($1)") }
        XCTAssertEqual(target, 0)
        XCTAssertEqual(pan.targetRestPosition, 0)
        XCTAssertFalse(pan.isDragging)
        XCTAssertEqual(pan.snapCurve, .easeInOut)
        try anim.seek(to: 0.15)
        try layout.solve()
        XCTAssertEqual(layout["basic"]!.frame.x, -50, accuracy: 1e-6)
        XCTAssertEqual(layout["advanced"]!.frame.x, 270, accuracy: 1e-6)
        try anim.seek(to: 0.3)
        assertOffset(layout, 0)
        XCTAssertEqual(reported, ["0.0 true"])
        XCTAssertEqual(rests, [0])
        XCTAssertEqual(pan.restPosition, 0)
        XCTAssertEqual(pan.restIndex, 0)
    }

    /// A fast swipe (|velocity| > 400) moves at most 20 per event, and on release snaps over to the next rest
    /// position in its direction; the completion reports -320.
    func testFastSwipeSnapsOver() throws {
        let (layout, pan) = try makeCalculator()
        let anim = layout.animator
        try pan.began()
        try pan.changed(translation: -60, velocity: -900)
        assertOffset(layout, -20)
        try pan.changed(translation: -150, velocity: -1200)
        assertOffset(layout, -40)
        try pan.changed(translation: -45, velocity: -300)  // slow again: follows the finger
        assertOffset(layout, -45)
        var reported: [Double] = []
        XCTAssertEqual(try pan.ended(velocity: -1200) { rest, finished in if finished { reported.append(rest) } }, -320)
        try anim.advance(by: 0.15)
        XCTAssertEqual(reported, [])
        try anim.advance(by: 0.15)
        assertOffset(layout, -320)
        XCTAssertEqual(reported, [-320])
        XCTAssertEqual(pan.restPosition, -320)
        XCTAssertEqual(pan.restIndex, 1)

        // Swiping right from there snaps back to 0; swiping left past the last rest stays at -320.
        try pan.began()
        try pan.changed(translation: 30, velocity: 800)
        assertOffset(layout, -300)
        XCTAssertEqual(try pan.ended(velocity: 800), 0)
        try anim.advance(by: 0.3)
        assertOffset(layout, 0)
        try pan.began()
        XCTAssertEqual(try pan.ended(velocity: 900), 0, "no rest to the right: the nearest")
    }

    /// Drag limit: half the root width from where the drag began; further drag is refused. A release exactly at
    /// the limit is a tie between 0 and -320 and goes the way the drag went.
    func testDragLimitAndTie() throws {
        let (layout, pan) = try makeCalculator()
        try pan.began()
        try pan.changed(translation: -250, velocity: -100)
        assertOffset(layout, -160)
        try pan.changed(translation: -400, velocity: -100)
        assertOffset(layout, -160)
        try pan.changed(translation: 500, velocity: 100)
        assertOffset(layout, 160)
        try pan.changed(translation: -160, velocity: -100)
        XCTAssertEqual(try pan.ended(velocity: 0), -320, "tie at half the width: over, the way it was dragged")
        try layout.animator.advance(by: 0.3)
        assertOffset(layout, -320)
        pan.dragLimit = 50
        try pan.began()
        try pan.changed(translation: 100, velocity: 100)
        assertOffset(layout, -270)
        XCTAssertEqual(try pan.ended(velocity: 0), -320)
    }

    /// Gating: while disabled, events are ignored and nothing moves; turning it off mid-drag ends the drag.
    func testGating() throws {
        let (layout, pan) = try makeCalculator()
        pan.isEnabled = false
        XCTAssertFalse(try pan.began())
        XCTAssertFalse(try pan.changed(translation: -100, velocity: -100))
        XCTAssertNil(try pan.ended(velocity: -1000))
        try layout.animator.advance(by: 1)
        assertOffset(layout, 0)
        XCTAssertFalse(pan.isDragging)

        pan.isEnabled = true
        try pan.began()
        try pan.changed(translation: -200, velocity: -100)
        assertOffset(layout, -160)
        pan.isEnabled = false  // as on rotation to landscape
        XCTAssertFalse(pan.isDragging)
        XCTAssertEqual(pan.targetRestPosition, -320)
        XCTAssertFalse(try pan.changed(translation: 0, velocity: 0))
        try layout.animator.advance(by: 0.3)
        assertOffset(layout, -320)
        // Enabled again, a changed without began is ignored too.
        pan.isEnabled = true
        XCTAssertFalse(try pan.changed(translation: 50, velocity: 0))
        assertOffset(layout, -320)
    }

    /// Orientation gating (the calculator pans in portrait only): in landscape every event is ignored; a
    /// rotation during a drag ends it, at its next event, as a slow release; back in portrait it works again.
    func testOrientationGating() throws {
        let (layout, pan) = try makeCalculator()
        XCTAssertEqual(layout.orientation, .portrait)
        XCTAssertEqual(pan.orientations, .all)
        pan.orientations = .portrait
        try layout.setRootSize(width: 480, height: 320)
        XCTAssertEqual(layout.orientation, .landscape)
        XCTAssertFalse(pan.isActive)
        XCTAssertFalse(try pan.began())
        XCTAssertFalse(try pan.changed(translation: -100, velocity: -100))
        XCTAssertFalse(pan.isDragging)

        try layout.setRootSize(width: 320, height: 480)
        XCTAssertTrue(try pan.began())
        try pan.changed(translation: -200, velocity: -100)
        assertOffset(layout, -160)
        try layout.setRootSize(width: 480, height: 320)   // rotated mid-drag
        XCTAssertFalse(try pan.changed(translation: -10, velocity: 0))
        XCTAssertFalse(pan.isDragging)
        XCTAssertEqual(pan.targetRestPosition, -320, "ended as a slow release past half the width")
        try layout.setRootSize(width: 320, height: 480)
        try layout.animator.advance(by: 0.3)
        assertOffset(layout, -320)
        pan.orientations = .landscape
        XCTAssertFalse(try pan.began())
        pan.orientations = .all
        XCTAssertTrue(try pan.began())
    }

    /// A new drag catches a running snap where it is; the interrupted snap reports `finished == false` and
    /// does not call `onRest`.
    func testGrabDuringSnap() throws {
        let (layout, pan) = try makeCalculator()
        var log: [String] = []
        pan.onRest = { log.append("rest \($0)") }
        try pan.began()
        try pan.changed(translation: -100, velocity: -100)
        try pan.ended(velocity: 0) { log.append("snap \($0) \($1)") }
        try layout.animator.advance(by: 0.1)
        let caught = pan.offset
        XCTAssertGreaterThan(caught, -100)
        XCTAssertLessThan(caught, 0)
        try pan.began()
        XCTAssertEqual(pan.dragStartOffset, caught)
        try layout.animator.advance(by: 0.5)
        XCTAssertEqual(pan.offset, caught, "the snap stopped")
        XCTAssertEqual(log, ["snap 0.0 false"])
        try pan.changed(translation: 10, velocity: 50)
        XCTAssertEqual(pan.offset, caught + 10, accuracy: 1e-9)
        try pan.ended(velocity: 0)
        try layout.animator.advance(by: 0.3)
        XCTAssertEqual(log, ["snap 0.0 false", "rest 0.0"])
    }

    /// A spring snap starts with the release velocity and settles on the rest position.
    func testSpringSnap() throws {
        let (layout, pan) = try makeCalculator()
        pan.snapCurve = .spring(Spring(dampingRatio: 0.8, response: 0.4))
        try pan.began()
        try pan.changed(translation: -40, velocity: -1200)
        try pan.ended(velocity: -1200)
        try layout.animator.advance(by: 0)
        XCTAssertEqual(layout.animator.velocity(of: .constant(pan.constraints[0])), -1200, accuracy: 1e-9)
        var reached: Double?
        pan.onRest = { reached = $0 }
        try layout.animator.runUntilIdle()
        XCTAssertEqual(reached, -320)
        assertOffset(layout, -320)
    }

    func testMisuse() throws {
        let (layout, pan) = try makeCalculator()
        XCTAssertEqual(expectError { _ = try PanDriver(constraints: [], axis: .horizontal) }?.kind, .invalid)
        XCTAssertEqual(expectError { _ = try PanDriver(constraints: pan.constraints, axis: .vertical) }?.kind, .invalid)
        XCTAssertEqual(expectError { _ = try PanDriver(constraints: pan.constraints, axis: .horizontal, restPositions: []) }?.kind,
                       .invalid)
        try pan.began()
        XCTAssertEqual(expectError { try pan.changed(translation: .nan, velocity: 0) }?.kind, .invalid)
        XCTAssertEqual(expectError { try pan.ended(velocity: .infinity) }?.kind, .invalid)
        try pan.cancelled()
        try layout.animator.advance(by: 0.3)
        assertOffset(layout, 0)
        try pan.move(to: -320, animated: false)
        assertOffset(layout, -320)
        XCTAssertEqual(pan.restPosition, -320)
    }
}
