import Foundation
import MoaLayout
import XCTest

/// Timing curves (Bézier and spring) and the number formatter, against values worked out by hand.
final class MotionCurveTests: XCTestCase {
    /// A cubic Bézier timing function at parameter s is
    /// x(s) = 3(1-s)²s·x1 + 3(1-s)s²·x2 + s³, y(s) = 3(1-s)²s·y1 + 3(1-s)s²·y2 + s³.
    /// easeInOut (0.42, 0, 0.58, 1):
    /// - s = 0.5: x = 0.375·0.42 + 0.375·0.58 + 0.125 = 0.5, y = 0.375 + 0.125 = 0.5 → progress(0.5) = 0.5.
    /// - s = 0.25: x = 3·0.5625·0.25·0.42 + 3·0.75·0.0625·0.58 + 0.015625 = 0.1771875 + 0.0815625 + 0.015625
    ///   = 0.274375; y = 3·0.75·0.0625 + 0.015625 = 0.15625 → progress(0.274375) = 0.15625.
    /// - symmetric: progress(1 - x) = 1 - progress(x).
    func testEaseInOutByHand() {
        let c = CubicBezier.easeInOut
        XCTAssertEqual(c.progress(at: 0), 0)
        XCTAssertEqual(c.progress(at: 1), 1)
        XCTAssertEqual(c.progress(at: 0.5), 0.5, accuracy: 1e-12)
        XCTAssertEqual(c.progress(at: 0.274375), 0.15625, accuracy: 1e-12)
        XCTAssertEqual(c.progress(at: 1 - 0.274375), 1 - 0.15625, accuracy: 1e-12)
        XCTAssertEqual(c.progress(at: -3), 0)
        XCTAssertEqual(c.progress(at: 7), 1)
        // Monotone.
        var last = 0.0
        for i in 1...100 {
            let p = c.progress(at: Double(i) / 100)
            XCTAssertGreaterThanOrEqual(p, last)
            last = p
        }
        // dy/dx at s = 0.5: x'(s) = 3(1-s)²x1 + 6(1-s)s(x2-x1) + 3s²(1-x2) = 0.75·0.42 + 1.5·0.16 + 0.75·0.42
        // = 0.87; y'(0.5) = 0 + 1.5 + 0 = 1.5 → slope 1.5 / 0.87.
        XCTAssertEqual(c.slope(at: 0.5), 1.5 / 0.87, accuracy: 1e-9)
    }

    /// easeIn (0.42, 0, 1, 1) at s = 0.5: x = 0.375·0.42 + 0.375 + 0.125 = 0.6575, y = 0.375 + 0.125 = 0.5.
    /// easeOut (0, 0, 0.58, 1) at s = 0.5: x = 0.375·0.58 + 0.125 = 0.3425, y = 0.5.
    /// linear is the identity, exactly.
    func testNamedCurvesByHand() {
        XCTAssertEqual(CubicBezier.easeIn.progress(at: 0.6575), 0.5, accuracy: 1e-12)
        XCTAssertEqual(CubicBezier.easeOut.progress(at: 0.3425), 0.5, accuracy: 1e-12)
        for x in [0.1, 0.3, 0.7, 0.123456789] {
            XCTAssertEqual(CubicBezier.linear.progress(at: x), x)
        }
        XCTAssertEqual(AnimationCurve.easeIn.timingFunction, CubicBezier(0.42, 0, 1, 1))
        XCTAssertEqual(AnimationCurve.easeOut.timingFunction, CubicBezier(0, 0, 0.58, 1))
        XCTAssertEqual(AnimationCurve.easeInOut.timingFunction, CubicBezier(0.42, 0, 0.58, 1))
        XCTAssertEqual(AnimationCurve.linear.timingFunction, CubicBezier(0, 0, 1, 1))
        XCTAssertFalse(CubicBezier(1.2, 0, 0.5, 1).isValid)
        XCTAssertTrue(CubicBezier(0.25, 0.1, 0.25, 1).isValid)
        XCTAssertEqual(CubicBezier.easeInOut.description, "cubic-bezier(0.42, 0, 0.58, 1)")
        // Slopes at the ends where a control point sits on the end point (0/0): the limit y''/x''.
        // easeOut at s = 0: x'' = 6(x2 - 2x1) = 3.48, y'' = 6(y2 - 2y1) = 6 → 6 / 3.48.
        XCTAssertEqual(CubicBezier.easeOut.slope(at: 0), 6 / 3.48, accuracy: 1e-9)
    }

    /// UIKit's raw curve values, as keyboard notifications send them, and the keyboard's own curve: fast at first
    /// (past 80% at half the time: it rises far more steeply than easeInOut), monotone, ending at 1.
    func testUIKitCurvesAndTheKeyboardCurve() {
        XCTAssertEqual(AnimationCurve(uiKitCurve: 0), .easeInOut)
        XCTAssertEqual(AnimationCurve(uiKitCurve: 1), .easeIn)
        XCTAssertEqual(AnimationCurve(uiKitCurve: 2), .easeOut)
        XCTAssertEqual(AnimationCurve(uiKitCurve: 3), .linear)
        XCTAssertEqual(AnimationCurve(uiKitCurve: 7), .keyboard)
        XCTAssertNil(AnimationCurve(uiKitCurve: 4))
        XCTAssertEqual(AnimationCurve.keyboard.timingFunction, CubicBezier(0.38, 0.7, 0.125, 1))
        XCTAssertTrue(AnimationCurve.keyboard.isValid)
        let k = CubicBezier.keyboard
        XCTAssertGreaterThan(k.progress(at: 0.5), 0.8)
        var last = 0.0
        for i in 1...100 {
            let y = k.progress(at: Double(i) / 100)
            XCTAssertGreaterThanOrEqual(y, last)
            last = y
        }
        XCTAssertEqual(last, 1, accuracy: 1e-12)
    }

    /// A spring's closed form: x(0) = from, x'(0) = v0; critically damped x(t) = to + e^(-ω t)(x0 + (v0 + ω x0) t)
    /// with ω = 2π / response; underdamped ones overshoot; the settling time leaves |x - to| below 0.001.
    func testSpringClosedForm() {
        let s = Spring(dampingRatio: 1, response: 1)
        let w = 2 * Double.pi
        // from 0 to 100, at rest: x0 = -100; at t = 0.5: 100 + e^(-π)(-100 - 50π).
        let want = 100 + exp(-Double.pi) * (-100 - 100 * w * 0.5)
        XCTAssertEqual(s.value(from: 0, to: 100, velocity: 0, elapsed: 0.5), want, accuracy: 1e-9)
        XCTAssertEqual(s.value(from: 0, to: 100, velocity: 0, elapsed: 0), 0)
        for spring in [Spring(dampingRatio: 0.3, response: 0.5), Spring(dampingRatio: 1, response: 0.5),
                       Spring(dampingRatio: 2.5, response: 0.5)] {
            let d = spring.settlingDuration(from: 0, to: 100, velocity: 500)
            XCTAssertGreaterThan(d, 0)
            for k in 0...200 {
                let t = d + Double(k) * 0.01
                XCTAssertLessThanOrEqual(abs(spring.value(from: 0, to: 100, velocity: 500, elapsed: t) - 100), 0.001 + 1e-9)
            }
            XCTAssertGreaterThan(abs(spring.value(from: 0, to: 100, velocity: 500, elapsed: d * 0.5) - 100), 0.001)
        }
        let bouncy = Spring(dampingRatio: 0.3, response: 0.5)
        let peak = (1...100).map { bouncy.value(from: 0, to: 100, velocity: 0, elapsed: Double($0) / 100) }.max()!
        XCTAssertGreaterThan(peak, 100, "an underdamped spring overshoots")
        let stiff = Spring(dampingRatio: 2, response: 0.5)
        let most = (1...300).map { stiff.value(from: 0, to: 100, velocity: 0, elapsed: Double($0) / 100) }.max()!
        XCTAssertLessThanOrEqual(most, 100, "an overdamped spring does not")
        XCTAssertEqual(Spring(dampingRatio: 0.5, frequency: 2).response, 0.5)
        let phys = Spring(mass: 1, stiffness: 4 * Double.pi * Double.pi, damping: 4 * Double.pi)
        XCTAssertEqual(phys.dampingRatio, 1, accuracy: 1e-12)
        XCTAssertEqual(phys.response, 1, accuracy: 1e-12)
        XCTAssertFalse(Spring(dampingRatio: 0, response: 1).isValid)
        XCTAssertFalse(Spring(dampingRatio: 1, response: 1, initialVelocity: .nan).isValid)
    }

    func testNumberText() {
        XCTAssertEqual(NumberText.fixed(0), "0")
        XCTAssertEqual(NumberText.fixed(-0.0), "0")
        XCTAssertEqual(NumberText.fixed(-0.0001), "0")
        XCTAssertEqual(NumberText.fixed(1.5), "1.5")
        XCTAssertEqual(NumberText.fixed(2.0004), "2")
        XCTAssertEqual(NumberText.fixed(2.0005), "2.001", "half away from zero")
        XCTAssertEqual(NumberText.fixed(-31.25), "-31.25")
        XCTAssertEqual(NumberText.fixed(1.0 / 3, decimals: 2), "0.33")
        XCTAssertEqual(NumberText.fixed(2.0 / 3, decimals: 0), "1")
        XCTAssertEqual(NumberText.fixed(0.05, decimals: 3), "0.05")
        XCTAssertEqual(NumberText.fixed(0.001), "0.001")
        XCTAssertEqual(NumberText.fixed(-1234567.891), "-1234567.891")
        XCTAssertEqual(NumberText.fixed(100), "100")
        XCTAssertEqual(NumberText.fixed(.nan), "nan")
        XCTAssertEqual(NumberText.fixed(-.infinity), "-inf")
        XCTAssertEqual(NumberText.fixed(1e20), "1e+20")
        XCTAssertEqual(NumberText.fixed(0.1 + 0.2, decimals: 9), "0.3")
    }
}
