// Moa — timing curves for animations: cubic Bézier timing functions (UIKit's named curves) and a damped
// spring, both evaluated in closed form from the elapsed time, so a frame never depends on earlier frames.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A cubic Bézier timing function from (0, 0) to (1, 1) with control points (`x1`, `y1`) and (`x2`, `y2`), as
/// CSS `cubic-bezier()` and Core Animation's `CAMediaTimingFunction` define it: the x axis is the fraction of
/// the duration elapsed, the y axis the fraction of the change made.
///
/// `x1` and `x2` must lie in 0...1 (so time only moves forward); `y1` and `y2` may leave 0...1 for curves that
/// overshoot.
public struct CubicBezier: Hashable, Sendable, CustomStringConvertible {
    /// The first control point's x (0...1).
    public let x1: Double
    /// The first control point's y.
    public let y1: Double
    /// The second control point's x (0...1).
    public let x2: Double
    /// The second control point's y.
    public let y2: Double

    /// Creates a timing function; check `isValid` (animations refuse invalid ones).
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    /// (0, 0, 1, 1): constant speed.
    public static let linear = CubicBezier(0, 0, 1, 1)
    /// (0.42, 0, 1, 1): starts slowly (UIKit `.curveEaseIn`, `kCAMediaTimingFunctionEaseIn`).
    public static let easeIn = CubicBezier(0.42, 0, 1, 1)
    /// (0, 0, 0.58, 1): ends slowly (UIKit `.curveEaseOut`).
    public static let easeOut = CubicBezier(0, 0, 0.58, 1)
    /// (0.42, 0, 0.58, 1): starts and ends slowly, symmetric about (0.5, 0.5) (UIKit `.curveEaseInOut`).
    public static let easeInOut = CubicBezier(0.42, 0, 0.58, 1)
    /// (0.38, 0.7, 0.125, 1): the curve the iOS keyboard moves with (its notifications send
    /// `UIView.AnimationCurve` raw value 7, which has no public name), as commonly measured.
    public static let keyboard = CubicBezier(0.38, 0.7, 0.125, 1)

    /// True when all four numbers are finite and `x1`, `x2` lie in 0...1.
    public var isValid: Bool {
        x1.isFinite && y1.isFinite && x2.isFinite && y2.isFinite && x1 >= 0 && x1 <= 1 && x2 >= 0 && x2 <= 1
    }

    /// `cubic-bezier(x1, y1, x2, y2)`.
    public var description: String {
        "cubic-bezier(\(formatNumber(x1)), \(formatNumber(y1)), \(formatNumber(x2)), \(formatNumber(y2)))"
    }

    /// The fraction of the change made when the fraction `x` of the duration has elapsed (`x` is clamped to
    /// 0...1; 0 gives 0 and 1 gives 1 exactly). Linear curves return `x` itself.
    public func progress(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if isLinear { return x }
        let s = solver
        return s.sampleY(s.parameter(forX: x))
    }

    /// dy/dx at the fraction `x` of the duration: the speed relative to the average speed (`x` clamped to
    /// 0...1).
    public func slope(at x: Double) -> Double {
        if isLinear { return 1 }
        let s = solver
        return s.slope(atParameter: s.parameter(forX: min(max(x, 0), 1)))
    }

    var isLinear: Bool { x1 == y1 && x2 == y2 }

    var solver: BezierSolver { BezierSolver(x1, y1, x2, y2) }
}

/// The polynomial form of a cubic Bézier timing function (as in WebKit's `UnitBezier`): Newton's method, then
/// bisection, to find the curve parameter of a given x.
struct BezierSolver {
    let ax, bx, cx, ay, by, cy: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
    }

    func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    func derivativeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
    func derivativeY(_ s: Double) -> Double { (3 * ay * s + 2 * by) * s + cy }

    /// The curve parameter s in 0...1 with x(s) == x (to about 1e-14).
    func parameter(forX x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var s = x
        for _ in 0..<8 {
            let e = sampleX(s) - x
            if abs(e) < 1e-14 { return s }
            let d = derivativeX(s)
            if abs(d) < 1e-9 { break }
            s -= e / d
            if !(s >= 0 && s <= 1) { break }
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<100 {
            let v = sampleX(s)
            if abs(v - x) < 1e-14 { return s }
            if v < x { lo = s } else { hi = s }
            s = lo + (hi - lo) / 2
        }
        return s
    }

    /// dy/dx at parameter s; where dx/ds vanishes (an end point with a control point on it), the limit
    /// (d²y/ds²)/(d²x/ds²).
    func slope(atParameter s: Double) -> Double {
        let dx = derivativeX(s), dy = derivativeY(s)
        if abs(dx) >= 1e-9 { return dy / dx }
        let ddx = 6 * ax * s + 2 * bx, ddy = 6 * ay * s + 2 * by
        return abs(ddx) >= 1e-12 ? ddy / ddx : 0
    }
}

/// A damped spring (SwiftUI's and UIKit's `dampingRatio` / `response` parameters). The animated value moves as
/// a mass on a spring towards the target; its motion is computed in closed form from the elapsed time.
///
/// - `dampingRatio` ζ: 1 is critically damped (fastest with no overshoot), below 1 overshoots and oscillates,
///   above 1 creeps in. Must be above 0.
/// - `response`: the period of the undamped oscillation in seconds (stiffness), ω₀ = 2π / response.
/// - `initialVelocity`: in points per second (the animated value's own unit per second, not UIKit's relative
///   velocity), e.g. a pan gesture's velocity at release. When nil, the value keeps the velocity it had: 0 at
///   rest, or the current velocity of the animation it retargets.
///
/// A spring animation's duration is its settling time: the first time after which the distance to the target
/// stays below `Spring.settlingTolerance` (0.001), computed from the decay envelope. At that time the value is
/// set to the target exactly and the animation completes.
public struct Spring: Hashable, Sendable, CustomStringConvertible {
    /// ζ: 1 critically damped, below 1 bouncy, above 1 overdamped; must be above 0.
    public var dampingRatio: Double
    /// The undamped period in seconds; must be above 0.
    public var response: Double
    /// The initial velocity in points per second, or nil to keep the current velocity.
    public var initialVelocity: Double?

    /// The distance to the target below which a spring counts as settled.
    public static let settlingTolerance = 0.001
    /// The longest settling time a spring animation is given, in seconds.
    public static let maximumSettlingTime = 600.0

    /// Creates a spring from a damping ratio and a response (undamped period, seconds).
    public init(dampingRatio: Double = 1, response: Double = 0.5, initialVelocity: Double? = nil) {
        self.dampingRatio = dampingRatio
        self.response = response
        self.initialVelocity = initialVelocity
    }

    /// Creates a spring from a damping ratio and an undamped frequency in hertz (response = 1 / frequency).
    public init(dampingRatio: Double, frequency: Double, initialVelocity: Double? = nil) {
        self.init(dampingRatio: dampingRatio, response: 1 / frequency, initialVelocity: initialVelocity)
    }

    /// Creates a spring from physical constants: ω₀ = √(stiffness / mass), ζ = damping / (2 √(stiffness · mass)).
    public init(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double? = nil) {
        let omega = (stiffness / mass).squareRoot()
        self.init(dampingRatio: damping / (2 * (stiffness * mass).squareRoot()), response: 2 * Double.pi / omega,
                  initialVelocity: initialVelocity)
    }

    /// True when the damping ratio and response are finite and above 0 and the velocity, if any, is finite.
    public var isValid: Bool {
        dampingRatio.isFinite && dampingRatio > 0 && response.isFinite && response > 0
            && (initialVelocity?.isFinite ?? true)
    }

    /// `spring(dampingRatio: 1, response: 0.5)`, with the velocity when set.
    public var description: String {
        var s = "spring(dampingRatio: \(formatNumber(dampingRatio)), response: \(formatNumber(response))"
        if let initialVelocity { s += ", initialVelocity: \(formatNumber(initialVelocity))" }
        return s + ")"
    }

    /// The value `elapsed` seconds after leaving `from` with `velocity` towards `to` (not clamped to the
    /// settling time).
    public func value(from: Double, to: Double, velocity: Double, elapsed: Double) -> Double {
        to + SpringMotion(self, displacement: from - to, velocity: velocity).displacement(at: elapsed)
    }

    /// The settling time, in seconds, of a motion from `from` to `to` starting at `velocity`.
    public func settlingDuration(from: Double, to: Double, velocity: Double) -> Double {
        SpringMotion(self, displacement: from - to, velocity: velocity).settlingTime
    }
}

/// A spring's motion relative to its target: displacement x(t) with x(0) = x0, x'(0) = v0, solving
/// x'' + 2ζω₀x' + ω₀²x = 0.
struct SpringMotion {
    enum Regime { case under, critical, over }
    let x0: Double, v0: Double, zeta: Double, omega: Double
    let regime: Regime
    // underdamped: x = e^(-ζω₀t) (x0 cos ωd t + b sin ωd t); overdamped: x = c1 e^(r1 t) + c2 e^(r2 t)
    let omegaD: Double, b: Double, r1: Double, r2: Double, c1: Double, c2: Double

    init(_ spring: Spring, displacement: Double, velocity: Double) {
        x0 = displacement; v0 = velocity
        zeta = spring.dampingRatio
        omega = 2 * Double.pi / spring.response
        if abs(zeta - 1) < 1e-9 {
            regime = .critical
            omegaD = 0; b = 0; r1 = 0; r2 = 0; c1 = 0; c2 = 0
        } else if zeta < 1 {
            regime = .under
            omegaD = omega * (1 - zeta * zeta).squareRoot()
            b = (velocity + zeta * omega * displacement) / omegaD
            r1 = 0; r2 = 0; c1 = 0; c2 = 0
        } else {
            regime = .over
            let s = (zeta * zeta - 1).squareRoot()
            r1 = -omega * (zeta - s); r2 = -omega * (zeta + s)
            c2 = (velocity - r1 * displacement) / (r2 - r1)
            c1 = displacement - c2
            omegaD = 0; b = 0
        }
    }

    func displacement(at t: Double) -> Double {
        if t <= 0 { return x0 }
        switch regime {
        case .under:
            return exp(-zeta * omega * t) * (x0 * cos(omegaD * t) + b * sin(omegaD * t))
        case .critical:
            return exp(-omega * t) * (x0 + (v0 + omega * x0) * t)
        case .over:
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
    }

    func velocity(at t: Double) -> Double {
        if t <= 0 { return v0 }
        switch regime {
        case .under:
            let e = exp(-zeta * omega * t), c = cos(omegaD * t), s = sin(omegaD * t)
            return e * (-zeta * omega * (x0 * c + b * s) + omegaD * (b * c - x0 * s))
        case .critical:
            let k = v0 + omega * x0
            return exp(-omega * t) * (k - omega * (x0 + k * t))
        case .over:
            return c1 * r1 * exp(r1 * t) + c2 * r2 * exp(r2 * t)
        }
    }

    /// An upper bound of |x(t)| that decreases after `peak`.
    func envelope(_ t: Double) -> Double {
        switch regime {
        case .under:
            return (x0 * x0 + b * b).squareRoot() * exp(-zeta * omega * t)
        case .critical:
            return (abs(x0) + abs(v0 + omega * x0) * t) * exp(-omega * t)
        case .over:
            return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        }
    }

    /// Where the envelope is largest (it decreases after).
    var peak: Double {
        guard regime == .critical else { return 0 }
        let k = abs(v0 + omega * x0)
        guard k > 0 else { return 0 }
        return max(0, 1 / omega - abs(x0) / k)
    }

    /// The first time after which the envelope stays below the tolerance (bisection, deterministic).
    var settlingTime: Double {
        let eps = Spring.settlingTolerance
        let lo0 = peak
        if envelope(lo0) <= eps { return 0 }
        var lo = lo0, hi = lo0 + 1 / omega
        while envelope(hi) > eps {
            lo = hi
            hi = lo0 + 2 * (hi - lo0)
            if hi >= Spring.maximumSettlingTime { return Spring.maximumSettlingTime }
        }
        for _ in 0..<80 {
            let mid = lo + (hi - lo) / 2
            if mid <= lo || mid >= hi { break }
            if envelope(mid) > eps { lo = mid } else { hi = mid }
        }
        return hi
    }
}

/// How an animated value moves from its current value to its target.
public enum AnimationCurve: Hashable, Sendable, CustomStringConvertible {
    /// Constant speed: cubic-bezier(0, 0, 1, 1).
    case linear
    /// Starts slowly: cubic-bezier(0.42, 0, 1, 1), UIKit's `.curveEaseIn`.
    case easeIn
    /// Ends slowly: cubic-bezier(0, 0, 0.58, 1), UIKit's `.curveEaseOut`.
    case easeOut
    /// Starts and ends slowly: cubic-bezier(0.42, 0, 0.58, 1), UIKit's `.curveEaseInOut`; halfway through the
    /// duration the value is exactly halfway.
    case easeInOut
    /// Any cubic Bézier timing function.
    case cubicBezier(CubicBezier)
    /// A damped spring; the animation lasts until the spring settles (its `duration` is ignored).
    case spring(Spring)

    /// The iOS keyboard's curve (`CubicBezier.keyboard`): pass it with the keyboard notification's duration to
    /// `Layout.showKeyboard(height:duration:curve:)` so content moves with the keyboard.
    public static let keyboard = AnimationCurve.cubicBezier(.keyboard)

    /// The curve for a `UIView.AnimationCurve` raw value, as a keyboard notification's
    /// `UIKeyboardAnimationCurveUserInfoKey` carries it: 0 easeInOut, 1 easeIn, 2 easeOut, 3 linear,
    /// 7 the keyboard's curve; nil for other values.
    public init?(uiKitCurve raw: Int) {
        switch raw {
        case 0: self = .easeInOut
        case 1: self = .easeIn
        case 2: self = .easeOut
        case 3: self = .linear
        case 7: self = .keyboard
        default: return nil
        }
    }

    /// The timing function of a Bézier curve, nil for a spring.
    public var timingFunction: CubicBezier? {
        switch self {
        case .linear: return .linear
        case .easeIn: return .easeIn
        case .easeOut: return .easeOut
        case .easeInOut: return .easeInOut
        case .cubicBezier(let b): return b
        case .spring: return nil
        }
    }

    /// True for valid Bézier control points and valid spring parameters.
    public var isValid: Bool {
        switch self {
        case .spring(let s): return s.isValid
        default: return timingFunction?.isValid ?? false
        }
    }

    /// The curve's name, e.g. `easeInOut`, `cubic-bezier(0.25, 0.1, 0.25, 1)`, `spring(dampingRatio: 1, ...)`.
    public var description: String {
        switch self {
        case .linear: return "linear"
        case .easeIn: return "easeIn"
        case .easeOut: return "easeOut"
        case .easeInOut: return "easeInOut"
        case .cubicBezier(let b): return b.description
        case .spring(let s): return s.description
        }
    }
}
