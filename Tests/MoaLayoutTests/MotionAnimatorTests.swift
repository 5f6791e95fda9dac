import MoaLayout
import XCTest

/// The clock and animations: collapse goldens, completion order, retargeting, delays, priorities, root size,
/// keyboard, springs, determinism and misuse.
final class MotionAnimatorTests: XCTestCase {
    /// Root 320 x 480; a 200-wide sidebar on the left, content filling the rest:
    /// sidebar (0, 0, 200, 480), content (200, 0, 120, 480).
    static let sidebarEquations = """
        sidebar.left == 0
        sidebar.top == 0
        sidebar.bottom == 0
        sidebar.width == 200
        content.left == sidebar.right
        content.right == 0
        content.top == 0
        content.bottom == 0
        """

    /// Many animations, cancelled one by one while scheduled and while running, among others that run to the end:
    /// the cancelled ones end unfinished with their values where they were, the others finish, and the
    /// animator's lists (which keep cancelled entries marked until they are compacted) report only what runs.
    func testCancellingManyAnimationsOneByOne() throws {
        let layout = try Layout(width: 1000, height: 1000)
        var cs: [LayoutConstraint] = []
        for i in 0..<300 {
            try layout.addView("v\(i)")
            cs.append(try layout.eq("v\(i).left == \(i)"))
        }
        try layout.solve()
        var fired = [Bool?](repeating: nil, count: 300)
        var animations: [Animation] = []
        for i in 0..<300 {
            // A third start at once, a third after 0.5 s, a third are timers of nothing (after 0.2 s).
            let a = i % 3 == 2
                ? try layout.animator.animate([], duration: 1, delay: 0.2) { fired[i] = $0 }
                : try layout.animator.animate(cs[i], to: Double(i) + 100, duration: 1, curve: .linear,
                                              delay: i % 3 == 0 ? 0 : 0.5) { fired[i] = $0 }
            animations.append(a)
        }
        for i in stride(from: 0, to: 300, by: 4) { animations[i].cancel() }      // all still scheduled
        _ = try layout.animator.advance(by: 0.25)
        XCTAssertEqual(layout.animator.animations.count, 300 - 75)
        for i in stride(from: 1, to: 300, by: 4) { animations[i].cancel() }      // running or scheduled
        _ = try layout.animator.advance(by: 0.5)
        XCTAssertEqual(layout.animator.animations.count, 150)
        XCTAssertNil(layout.animator.animation(id: animations[0].id), "cancelled")
        XCTAssertNil(layout.animator.animation(id: animations[1].id), "cancelled")
        XCTAssertTrue(layout.animator.animation(id: animations[2].id) === animations[2], "running")
        _ = try layout.animator.advance(by: 2)
        XCTAssertFalse(layout.animator.isAnimating)
        XCTAssertNil(layout.animator.animation(id: animations[2].id), "ended")
        for i in 0..<300 {
            let cancelled = i % 4 == 0 || i % 4 == 1
            XCTAssertEqual(fired[i], !cancelled, "animation \(i)")
            XCTAssertEqual(animations[i].finished, !cancelled, "animation \(i)")
            if i % 3 == 2 { continue }
            let x = layout.views[i].frame.x
            if !cancelled {
                XCTAssertEqual(x, Double(i) + 100, accuracy: 1e-9)
            } else if i % 4 == 0 || i % 3 == 1 {
                XCTAssertEqual(x, Double(i), accuracy: 1e-9, "cancelled before it started: \(i)")
            } else {
                XCTAssertEqual(x, Double(i) + 25, accuracy: 1e-9, "cancelled a quarter of the way: \(i)")
            }
        }
        // And cancelling all of many at once.
        for i in 0..<300 { try layout.animator.animate(cs[i], to: 0, duration: 1, delay: Double(i % 2)) }
        _ = try layout.animator.advance(by: 0.5)
        layout.animator.cancelAll()
        XCTAssertTrue(layout.animator.animations.isEmpty)
        _ = try layout.animator.advance(by: 0.1)
        XCTAssertFalse(layout.animator.isAnimating)
    }

    func makeSidebar() throws -> (Layout, Collapsible) {
        let layout = try Layout(width: 320, height: 480)
        let sidebar = try layout.addView("sidebar")
        try layout.addView("content")
        let cs = try layout.eqs(Self.sidebarEquations)
        try layout.solve()
        return (layout, try layout.collapsible(sidebar, constraint: cs[0], direction: .left))
    }

    /// Collapse left over 0.3 s with easeInOut: the constant goes from 0 to 0 - 200 (the sidebar's width), so
    /// sidebar.x = -200·p and content = (200 - 200·p, 0, 120 + 200·p, 480), p = easeInOut(t / 0.3):
    /// - t = 0: p = 0 → sidebar (0, 0, 200, 480), content (200, 0, 120, 480).
    /// - t = 0.0823125 (x = 0.274375, the curve at s = 0.25, see MotionCurveTests): p = 0.15625
    ///   → sidebar x -31.25, content (168.75, 0, 151.25, 480).
    /// - t = 0.15 (x = 0.5; the curve is symmetric): p = 0.5 → sidebar x -100, content (100, 0, 220, 480).
    /// - t = 0.3: p = 1 → sidebar (-200, 0, 200, 480), content (0, 0, 320, 480); the completion fires here,
    ///   once.
    func testCollapseGoldenFrames() throws {
        let (layout, sidebar) = try makeSidebar()
        var fired: [Bool] = []
        XCTAssertEqual(sidebar.collapsedConstant, -200)
        try sidebar.collapse(duration: 0.3, curve: .easeInOut) { fired.append($0) }
        XCTAssertTrue(sidebar.isCollapsed, "the model value changes at the call")
        try layout.animator.advance(by: 0)
        assertFrame(layout["sidebar"], 0, 0, 200, 480)
        assertFrame(layout["content"], 200, 0, 120, 480)
        try layout.animator.advance(by: 0.15)
        assertFrame(layout["sidebar"], -100, 0, 200, 480)
        assertFrame(layout["content"], 100, 0, 220, 480)
        XCTAssertEqual(fired, [])
        try layout.animator.advance(by: 0.15)
        XCTAssertEqual(layout.animator.time, 0.3)
        assertFrame(layout["sidebar"], -200, 0, 200, 480)
        assertFrame(layout["content"], 0, 0, 320, 480)
        XCTAssertEqual(sidebar.constraint.constant, -200, "exactly the target at the end")
        XCTAssertEqual(fired, [true])
        try layout.animator.advance(by: 1)
        XCTAssertEqual(fired, [true], "fires exactly once")
        XCTAssertFalse(layout.animator.isAnimating)

        // The quarter point, by seeking.
        let (layout2, sidebar2) = try makeSidebar()
        try sidebar2.collapse()
        let snap = try layout2.animator.frames(at: 0.0823125)
        XCTAssertEqual(snap["sidebar"]!.frame.x, -31.25, accuracy: 1e-6)
        XCTAssertEqual(snap["content"]!.frame.x, 168.75, accuracy: 1e-6)
        XCTAssertEqual(snap["content"]!.frame.width, 151.25, accuracy: 1e-6)
        XCTAssertEqual(snap.time, 0.0823125)

        // Show again: back to 0.
        try sidebar.show(duration: 0.3)
        XCTAssertFalse(sidebar.isCollapsed)
        try layout.animator.advance(by: 0.3)
        assertFrame(layout["sidebar"], 0, 0, 200, 480)
        try sidebar.toggle(animated: false)
        XCTAssertTrue(sidebar.isCollapsed)
        try layout.solve()
        assertFrame(layout["sidebar"], -200, 0, 200, 480)
        try sidebar.toggle(animated: false)
        try layout.solve()
        assertFrame(layout["sidebar"], 0, 0, 200, 480)
    }

    /// The collapsed constant follows the direction and the side of the constraint the view is on.
    func testCollapseDirections() throws {
        let layout = try Layout(width: 320, height: 480)
        for n in ["a", "b", "c", "d"] { try layout.addView(n) }
        let cs = try layout.eqs("""
            a.right == 0
            a.top == 0
            a.size == 50x60
            root.top == b.top
            b.left == 0
            b.size == 70x80
            c.bottom == 0
            c.left == 0
            c.size == 30x40
            root.left == d.left * 2 + 10
            d.top == 0
            d.size == 20x20
            """)
        try layout.solve()
        let right = try Collapsible(view: layout["a"]!, constraint: cs[0], direction: .right)
        XCTAssertEqual(right.collapsedConstant, 50)
        // root.top == b.top + c: b.top = root.top - c; moving b up by 80 needs c = +80.
        let up = try Collapsible(view: layout["b"]!, constraint: cs[4], direction: .up)
        XCTAssertEqual(up.collapsedConstant, 80)
        let down = try Collapsible(view: layout["c"]!, constraint: cs[8], direction: .down)
        XCTAssertEqual(down.collapsedConstant, 40)
        // root.left == 2·d.left + c: d.left = (root.left - c) / 2 = -5; flush off the left edge is d.left = -20,
        // a move of 15, which needs c += 30.
        let left = try Collapsible(view: layout["d"]!, constraint: cs[12], direction: .left)
        XCTAssertEqual(left.collapsedConstant, 10 + 30)
        for c in [right, up, down, left] { try c.collapse(animated: false) }
        try layout.solve()
        assertFrame(layout["a"], 320, 0, 50, 60)
        assertFrame(layout["b"], 0, -80, 70, 80)
        assertFrame(layout["c"], 0, 480, 30, 40)
        assertFrame(layout["d"], -20, 0, 20, 20)
        XCTAssertEqual(expectError { _ = try Collapsible(view: layout["a"]!, constraint: cs[0], direction: .up) }?.kind,
                       .invalid)
    }

    /// A shown constant other than 0 (the seed: a sidebar inset by 16) still collapses fully off: the collapsed
    /// constant is -width, not 16 - width; the same on the right, and while collapsed the target stays put.
    func testCollapseWithAnInsetGoesFullyOff() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("sidebar")
        try layout.addView("panel")
        let cs = try layout.eqs("""
            sidebar.left == 16
            sidebar.top == 0
            sidebar.size == 100x100
            panel.right == -16
            panel.top == 200
            panel.size == 80x80
            """)
        try layout.solve()
        let left = try Collapsible(view: layout["sidebar"]!, constraint: cs[0], direction: .left)
        let right = try Collapsible(view: layout["panel"]!, constraint: cs[4], direction: .right)
        XCTAssertEqual(left.collapsedConstant, -100)
        XCTAssertEqual(right.collapsedConstant, 80)
        try left.collapse(animated: false)
        try right.collapse(animated: false)
        try layout.solve()
        assertFrame(layout["sidebar"], -100, 0, 100, 100)
        assertFrame(layout["panel"], 320, 200, 80, 80)
        XCTAssertEqual(left.collapsedConstant, -100, "computed from the shown position, wherever the view is now")
        try left.show(animated: false)
        try layout.solve()
        assertFrame(layout["sidebar"], 16, 0, 100, 100)
    }

    /// Three animations ending at 0.1 (made in the order b, c, d) and one at 0.2 (a, made first), all passed
    /// by a single frame: they fire by end time, then by creation.
    func testCompletionOrder() throws {
        let layout = try Layout(width: 100, height: 100)
        var cs: [LayoutConstraint] = []
        for n in ["a", "b", "c", "d"] {
            try layout.addView(n)
            cs.append(try layout.eq("\(n).left == 0"))
        }
        var order: [String] = []
        let anim = layout.animator
        try anim.animate(cs[0], to: 10, duration: 0.2) { _ in order.append("a") }
        try anim.animate(cs[1], to: 10, duration: 0.1) { _ in order.append("b") }
        try anim.animate(cs[2], to: 10, duration: 0.1, curve: .linear) { _ in order.append("c") }
        try anim.animate(cs[3], to: 10, duration: 0.05, delay: 0.05) { _ in order.append("d") }
        try anim.advance(by: 0.05)
        XCTAssertEqual(order, [])
        try anim.advance(by: 1)
        XCTAssertEqual(order, ["b", "c", "d", "a"])
        // In separate frames, each fires at the first frame at or past its end.
        order = []
        try anim.animate(cs[0], to: 0, duration: 0.3) { _ in order.append("slow") }
        try anim.animate(cs[1], to: 0, duration: 0.1) { _ in order.append("fast") }
        try anim.advance(by: 0.1)
        XCTAssertEqual(order, ["fast"])
        try anim.advance(by: 0.1)
        XCTAssertEqual(order, ["fast"])
        try anim.advance(by: 0.11)
        XCTAssertEqual(order, ["fast", "slow"])
        // An interrupted animation ends when it is taken over: before one that ends later in the same frame.
        order = []
        try anim.animate(cs[2], to: 50, duration: 1) { order.append("first \($0)") }
        try anim.animate(cs[3], to: 50, duration: 0.5) { order.append("other \($0)") }
        try anim.advance(by: 0.25)
        try anim.animate(cs[2], to: 0, duration: 0.1) { order.append("retarget \($0)") }
        try anim.advance(by: 1)
        XCTAssertEqual(order, ["first false", "retarget true", "other true"])
    }

    /// Retargeting mid-animation: the value at the retarget frame equals the value before it (no jump), the
    /// new animation heads for the new target, the old completion reports `false`.
    func testRetargetIsContinuous() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("box")
        let c = try layout.eq("box.left == 0")
        try layout.eqs("box.top == 0\nbox.size == 10x10")
        let anim = layout.animator
        var results: [String] = []
        try anim.animate(c, to: 100, duration: 1, curve: .linear) { results.append("first \($0)") }
        try anim.seek(to: 0.5)
        XCTAssertEqual(c.constant, 50)
        XCTAssertEqual(anim.velocity(of: .constant(c)), 100, accuracy: 1e-9)
        try anim.animate(c, to: 0, duration: 1, curve: .easeInOut) { results.append("second \($0)") }
        try anim.advance(by: 0)
        XCTAssertEqual(c.constant, 50, "no jump at the retarget frame")
        XCTAssertEqual(results, ["first false"])
        try anim.advance(by: 0.01)
        XCTAssertEqual(c.constant, 50, accuracy: 0.1, "and no jump right after")
        XCTAssertLessThan(c.constant, 50)
        try anim.seek(to: 1.0)  // half of the new animation: 50 → 0 is halfway at 25
        XCTAssertEqual(c.constant, 25, accuracy: 1e-9)
        try layout.solve()
        assertFrame(layout["box"], 25, 0, 10, 10)
        try anim.seek(to: 1.5)
        XCTAssertEqual(c.constant, 0)
        XCTAssertEqual(results, ["first false", "second true"])
    }

    /// A spring retargeting a moving value keeps its velocity: the linear 0 → 100 / 1 s moves at 100 points/s;
    /// a spring to 0 started at 0.5 s leaves 50 at 100 points/s (so it first keeps rising: 0.1 ms later it is
    /// at 50 + 0.01 less half its acceleration ω²·50 + 2ζω·100 ≈ 14536 points/s² times (1e-4)², about 50.0099)
    /// and settles at 0.
    func testSpringRetargetKeepsVelocity() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("box")
        let c = try layout.eq("box.left == 0")
        let anim = layout.animator
        try anim.animate(c, to: 100, duration: 1, curve: .linear)
        try anim.seek(to: 0.5)
        var done: [Bool] = []
        let a = try anim.animate(c, to: 0, curve: .spring(Spring(dampingRatio: 0.7, response: 0.4))) { done.append($0) }
        try anim.advance(by: 0)
        XCTAssertEqual(c.constant, 50)
        XCTAssertEqual(anim.velocity(of: .constant(c)), 100, accuracy: 1e-9)
        try anim.advance(by: 0.0001)
        XCTAssertGreaterThan(c.constant, 50, "still moving up")
        XCTAssertEqual(c.constant, 50 + 100 * 0.0001, accuracy: 1e-3)
        XCTAssertNotNil(a.endTime)
        var frames = 0
        while anim.isAnimating, frames < 10000 {
            try anim.advance(by: 1.0 / 60)
            frames += 1
        }
        XCTAssertEqual(c.constant, 0, "settles exactly at the target")
        XCTAssertEqual(done, [true])
        XCTAssertLessThan(Double(frames) / 60, 3)
    }

    /// Springs settle at the target; an underdamped one overshoots on the way, a given initial velocity (a
    /// gesture's) is used, and the completion comes at the settling time.
    func testSpringSettlesAtTarget() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("box")
        let c = try layout.eq("box.left == 0")
        let anim = layout.animator
        let spring = Spring(dampingRatio: 0.5, response: 0.3)
        var doneAt: Double?
        let a = try anim.animate(c, to: 100, curve: .spring(spring)) { _ in doneAt = anim.time }
        try anim.advance(by: 0)
        let settle = try XCTUnwrap(a.endTime)
        XCTAssertEqual(settle, spring.settlingDuration(from: 0, to: 100, velocity: 0))
        var peak = 0.0
        anim.startRecording()
        try anim.runUntilIdle(fps: 120)
        let trace = anim.stopRecording()
        for s in trace.snapshots { peak = max(peak, s["box"]!.frame.x) }
        XCTAssertGreaterThan(peak, 100)
        XCTAssertEqual(c.constant, 100)
        let at = try XCTUnwrap(doneAt)
        XCTAssertGreaterThanOrEqual(at, settle)
        XCTAssertLessThan(at, settle + 1.0 / 120 + 1e-9)

        // With a gesture's velocity, critically damped: leaves at that speed.
        try anim.animate(c, to: 0, curve: .spring(Spring(dampingRatio: 1, response: 0.5, initialVelocity: 800)))
        try anim.advance(by: 0)
        XCTAssertEqual(anim.velocity(of: .constant(c)), 800, accuracy: 1e-9)
        try anim.advance(by: 0.01)
        XCTAssertGreaterThan(c.constant, 100)
        try anim.runUntilIdle()
        XCTAssertEqual(c.constant, 0)
    }

    /// A delay holds the start; a delayed animation takes a property over from a running one when it starts.
    func testDelay() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("box")
        let c = try layout.eq("box.left == 0")
        let anim = layout.animator
        let a = try anim.animate(c, to: 100, duration: 0.5, curve: .linear, delay: 0.5)
        XCTAssertEqual(a.state, .scheduled)
        XCTAssertNil(a.endTime)
        try anim.seek(to: 0.25)
        XCTAssertEqual(c.constant, 0)
        try anim.seek(to: 0.75)
        XCTAssertEqual(a.state, .running)
        XCTAssertEqual(a.endTime, 1)
        XCTAssertEqual(c.constant, 50, accuracy: 1e-9)
        // Delayed retarget: the running animation keeps going until 1.0 would be its end, but at 0.9 the new
        // one takes over from 80 (the linear value there) and goes to 0 over 0.4 s.
        var log: [String] = []
        try anim.animate(c, to: 0, duration: 0.4, curve: .linear, delay: 0.15) { log.append("new \($0)") }
        try anim.seek(to: 0.85)
        XCTAssertEqual(c.constant, 70, accuracy: 1e-9)
        try anim.seek(to: 1.1)  // 0.2 s into the new one: 80 → 0, half way
        XCTAssertEqual(c.constant, 40, accuracy: 1e-9)
        XCTAssertEqual(a.finished, false)
        try anim.seek(to: 1.31)
        XCTAssertEqual(c.constant, 0)
        XCTAssertEqual(log, ["new true"])
        // Cancelling a scheduled animation: it never starts and reports false at the next frame.
        let b = try anim.animate(c, to: 30, duration: 0.1, delay: 1) { log.append("cancelled \($0)") }
        b.cancel()
        try anim.advance(by: 2)
        XCTAssertEqual(c.constant, 0)
        XCTAssertEqual(log, ["new true", "cancelled false"])
    }

    /// Priorities: `a.width == 100 @ 500` against `a.width == 200 @ 600` (200 wins). Animating the first to
    /// 1000 over 1 s linearly: 500 + 500 t, rounded, kept at 999 or below until the last frame.
    /// - t = 0.1: 550 < 600 → width 200. t = 0.25: 625 > 600 → width 100.
    /// - t = 0.9995: 999.75 rounds to 1000, held at 999 → still optional. t = 1: 1000, required.
    func testPriorityAnimationNeverCrosses1000MidWay() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("a")
        let low = try layout.eq("a.width == 100 @ 500")
        try layout.eq("a.width == 200 @ 600")
        try layout.eqs("a.left == 0\na.top == 0\na.height == 10")
        let anim = layout.animator
        var done: [Bool] = []
        try anim.animate(low, priority: 1000, duration: 1, curve: .linear) { done.append($0) }
        try anim.seek(to: 0.1)
        XCTAssertEqual(low.priority, 550)
        assertFrame(layout["a"], 0, 0, 200, 10)
        try anim.seek(to: 0.25)
        XCTAssertEqual(low.priority, 625)
        assertFrame(layout["a"], 0, 0, 100, 10)
        try anim.seek(to: 0.9995)
        XCTAssertEqual(low.priority, 999)
        XCTAssertFalse(low.isRequired)
        try anim.seek(to: 1)
        XCTAssertEqual(low.priority, 1000)
        XCTAssertTrue(low.isRequired)
        XCTAssertEqual(done, [true])
        // And back down: optional from the first frame.
        try anim.animate(low, priority: 250, duration: 1, curve: .linear)
        try anim.advance(by: 0.0001)
        XCTAssertEqual(low.priority, 999)
        try anim.advance(by: 1)
        XCTAssertEqual(low.priority, 250)
        assertFrame(layout["a"], 0, 0, 200, 10)
    }

    /// The root size animates through `setRootSize`: 320 x 480 → 480 x 320 linearly over 1 s is 400 x 400 at
    /// 0.5 s; a view pinned to the root follows.
    func testRootSizeAnimation() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("box")
        try layout.eqs("box.pin == 10")
        let anim = layout.animator
        try anim.animateRootSize(width: 480, height: 320, duration: 1, curve: .linear)
        try anim.seek(to: 0.5)
        XCTAssertEqual(layout.rootWidth, 400)
        XCTAssertEqual(layout.rootHeight, 400)
        assertFrame(layout["box"], 10, 10, 380, 380)
        try anim.seek(to: 1)
        assertFrame(layout["box"], 10, 10, 460, 300)
        assertFrame(layout.root, 0, 0, 480, 320)
    }

    /// The keyboard guide follows an animated keyboard height; a field attached to its top follows, and
    /// returns when it hides. Root 320 x 480, field.bottom == keyboard.top - 8, height 40:
    /// - no keyboard: bottom 472 → field y 432.
    /// - show 260 over 0.25 s linear: at 0.125 s the height is 130 → keyboard (0, 350, 320, 130), field bottom
    ///   342 → y 302; at 0.25 s: keyboard (0, 220, 320, 260), field y 172.
    /// - hide over 0.25 s: back to y 432.
    func testKeyboardShowAndHide() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("field")
        try layout.eqs("""
            field.left == 8
            field.right == -8
            field.height == 40
            field.bottom == keyboard.top - 8
            """)
        try layout.solve()
        assertFrame(layout["field"], 8, 432, 304, 40)
        let anim = layout.animator
        var done: [String] = []
        XCTAssertFalse(layout.isKeyboardVisible)
        try layout.showKeyboard(height: 260, duration: 0.25, curve: .linear) { done.append("shown \($0)") }
        XCTAssertTrue(layout.isKeyboardVisible)
        try anim.advance(by: 0.125)
        XCTAssertEqual(layout.keyboardHeight, 130)
        assertFrame(layout.keyboard, 0, 350, 320, 130)
        assertFrame(layout["field"], 8, 302, 304, 40)
        try anim.advance(by: 0.125)
        assertFrame(layout.keyboard, 0, 220, 320, 260)
        assertFrame(layout["field"], 8, 172, 304, 40)
        XCTAssertEqual(done, ["shown true"])
        try layout.hideKeyboard(duration: 0.25) { done.append("hidden \($0)") }
        XCTAssertFalse(layout.isKeyboardVisible)
        try anim.advance(by: 0.125)  // easeInOut halfway: 130
        assertFrame(layout["field"], 8, 302, 304, 40)
        try anim.advance(by: 0.125)
        assertFrame(layout["field"], 8, 432, 304, 40)
        XCTAssertEqual(layout.keyboardHeight, 0)
        XCTAssertEqual(done, ["shown true", "hidden true"])
    }

    /// The same calls give bit-identical frames.
    func testDeterminism() throws {
        func run() throws -> (FrameTrace, String) {
            let (layout, sidebar) = try makeSidebar()
            try layout.addView("field")
            try layout.eqs("field.left == 0\nfield.width == 100\nfield.height == 30\nfield.bottom == keyboard.top")
            let anim = layout.animator
            anim.startRecording()
            try sidebar.collapse(curve: .spring(Spring(dampingRatio: 0.6, response: 0.35)))
            try layout.showKeyboard(height: 216, duration: 0.25, curve: .easeOut)
            for i in 1...20 { try anim.advance(by: 0.013 * Double(i % 3 + 1)) }
            try sidebar.toggle(duration: 0.2, curve: .easeIn)
            try anim.animateRootSize(width: 480, height: 320, duration: 0.4, curve: .cubicBezier(CubicBezier(0.25, 0.1, 0.25, 1)))
            for _ in 1...40 { try anim.advance(by: 1.0 / 60) }
            let trace = anim.stopRecording()
            return (trace, trace.csv(decimals: 9))
        }
        let (a, csvA) = try run()
        let (b, csvB) = try run()
        XCTAssertEqual(a.snapshots.count, 61)
        XCTAssertEqual(csvA, csvB)
        for (x, y) in zip(a.snapshots, b.snapshots) {
            XCTAssertEqual(x.time.bitPattern, y.time.bitPattern)
            for (u, v) in zip(x.views, y.views) {
                for (p, q) in [(u.frame.x, v.frame.x), (u.frame.y, v.frame.y), (u.frame.width, v.frame.width),
                               (u.frame.height, v.frame.height), (u.frameInRoot.x, v.frameInRoot.x)] {
                    XCTAssertEqual(p.bitPattern, q.bitPattern, "\(u.name) at \(x.time)")
                }
            }
        }
    }

    /// Misuse fails with an error and changes nothing.
    func testMisuse() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("box")
        let c = try layout.eq("box.left == 0")
        let anim = layout.animator
        XCTAssertEqual(expectError { try anim.advance(by: -1) }?.kind, .invalid)
        XCTAssertEqual(expectError { try anim.advance(by: .nan) }?.kind, .invalid)
        try anim.advance(by: 1)
        XCTAssertEqual(expectError { try anim.seek(to: 0.5) }?.kind, .invalid)
        XCTAssertEqual(anim.time, 1)
        XCTAssertEqual(expectError { try anim.animate(c, to: .infinity) }?.kind, .invalid)
        XCTAssertEqual(expectError { try anim.animate(c, to: 1, duration: -1) }?.kind, .invalid)
        XCTAssertEqual(expectError { try anim.animate(c, to: 1, delay: .nan) }?.kind, .invalid)
        XCTAssertEqual(expectError { try anim.animate(c, priority: 0) }?.kind, .invalid)
        XCTAssertEqual(expectError { try anim.animate(c, to: 1, curve: .cubicBezier(CubicBezier(2, 0, 0, 1))) }?.kind, .invalid)
        XCTAssertEqual(expectError { try anim.animate(c, to: 1, curve: .spring(Spring(dampingRatio: -1))) }?.kind, .invalid)
        XCTAssertEqual(expectError { try anim.animate([(.constant(c), 1), (.constant(c), 2)]) }?.kind, .invalid)
        XCTAssertEqual(expectError { try anim.animateRootSize(width: -1, height: 10) }?.kind, .invalid)
        XCTAssertEqual(expectError { try layout.showKeyboard(height: -5) }?.kind, .invalid)
        let rootWidth = layout.allConstraints.first { $0.origin == .rootSize && $0.firstAttribute == .width }!
        XCTAssertEqual(expectError { try anim.animate(rootWidth, to: 10) }?.kind, .invalid)
        let other = try Layout(width: 10, height: 10)
        try other.addView("x")
        let foreign = try other.eq("x.left == 0")
        XCTAssertEqual(expectError { try anim.animate(foreign, to: 1) }?.kind, .invalid)
        XCTAssertFalse(anim.isAnimating)

        // The clock cannot move from a completion.
        var inner: LayoutError?
        try anim.animate(c, to: 5, duration: 0.1) { _ in
            do throws(LayoutError) { try anim.advance(by: 1) } catch { inner = error }
        }
        try anim.advance(by: 0.2)
        XCTAssertEqual(inner?.kind, .invalid)
        XCTAssertEqual(c.constant, 5)

        // A constraint removed mid-animation: its animation stops, reports false, the frame names the error.
        var result: Bool?
        try anim.animate(c, to: 50, duration: 1) { result = $0 }
        try anim.advance(by: 0.1)
        try layout.remove(c)
        try anim.advance(by: 0.1)
        XCTAssertEqual(result, false)
        XCTAssertEqual(anim.frameErrors.map(\.kind), [.stale])
        XCTAssertEqual(expectError { try anim.animate(c, to: 1) }?.kind, .stale)
        try anim.advance(by: 0.1)
        XCTAssertEqual(anim.frameErrors.count, 0)
    }

    /// Each frame is an in-place re-solve: animating adds no constraints and leaves the solver's constraint
    /// count as it was.
    func testFramesAreIncremental() throws {
        let (layout, sidebar) = try makeSidebar()
        let before = layout.solver.constraintCount
        try sidebar.collapse()
        for _ in 0..<10 { try layout.animator.advance(by: 0.03) }
        XCTAssertEqual(layout.solver.constraintCount, before)
        XCTAssertEqual(layout.animator.frameCount, 10)
        XCTAssertEqual(layout.constraints.count, 8)
    }

    /// An animation with nothing to move is a timer of its duration; `cancelAll` stops everything.
    func testTimerAndCancelAll() throws {
        let (layout, sidebar) = try makeSidebar()
        let anim = layout.animator
        var log: [String] = []
        try anim.animate([], duration: 0.2) { log.append("timer \($0)") }
        try sidebar.collapse(duration: 1) { log.append("collapse \($0)") }
        try anim.advance(by: 0.1)
        XCTAssertEqual(log, [])
        try anim.advance(by: 0.1)
        XCTAssertEqual(log, ["timer true"])
        let x = sidebar.constraint.constant
        anim.cancelAll()
        try anim.advance(by: 0.1)
        XCTAssertEqual(sidebar.constraint.constant, x, "stays where it was")
        XCTAssertEqual(log, ["timer true", "collapse false"])
        XCTAssertFalse(anim.isAnimating)
    }
}
