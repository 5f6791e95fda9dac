// Moa — collapse / show: a view that slides fully off by its own size along one constraint, and back.

/// The way a collapsing view leaves.
public enum CollapseDirection: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Moves left by its width.
    case left
    /// Moves right by its width.
    case right
    /// Moves up by its height.
    case up
    /// Moves down by its height.
    case down

    /// The axis it moves along.
    public var axis: LayoutAxis { self == .left || self == .right ? .horizontal : .vertical }

    /// `"left"`, `"right"`, `"up"` or `"down"`.
    public var description: String { rawValue }

    /// -1 towards smaller coordinates (left, up), +1 towards larger ones.
    var sign: Double { self == .left || self == .up ? -1 : 1 }
}

/// A view that collapses (slides fully off by its own size) and shows again, by changing one constraint's
/// constant: the `Collapsible` idea.
///
/// The constraint's constant when the collapsible is made is the *shown* constant. Collapsing sets it to the
/// shown constant moved by the view's current width (left, right) or height (up, down), as of the last solve
/// (the layout is solved first if needed), in the direction's sense: for `left`, `shown - width` when the view
/// is the constraint's first view (`sidebar.left == root.left + c`), `shown + width` when it is the second
/// (`root.left == sidebar.left + c`; in general the change is divided by `-multiplier`), and mirrored for a
/// leading/trailing constraint in a right-to-left layout. A constraint that names neither view is taken to move
/// it like a first view. Showing returns the constant to the shown one.
///
/// Animated changes go through the layout's `Animator` (so a toggle mid-animation retargets smoothly from
/// where the view is); unanimated ones stop any running animation of the constant and set it at once (solve,
/// or advance the clock, to see the frames). `isCollapsed` changes at the call, not at the end of the
/// animation.
public final class Collapsible {
    /// The view that collapses.
    public let view: View
    /// The constraint whose constant moves it.
    public let constraint: LayoutConstraint
    /// Where the view goes when it collapses.
    public let direction: CollapseDirection
    /// The constant when shown.
    public let shownConstant: Double
    /// True after `collapse`, false after `show` (from the call on, while the animation runs).
    public private(set) var isCollapsed = false
    /// The duration of animated changes when none is given (default 0.3 s).
    public var duration: Double = 0.3
    /// The curve of animated changes when none is given (default `.easeInOut`).
    public var curve: AnimationCurve = .easeInOut

    /// Makes `view` collapsible through `constraint` (whose current constant becomes the shown constant).
    /// - Throws: `.invalid` when the constraint is not an equation of the view's layout, or its axis is not
    ///   the direction's; `.stale` for a removed view or constraint.
    public init(view: View, constraint: LayoutConstraint, direction: CollapseDirection) throws(LayoutError) {
        let layout = try view.checkUsable()
        _ = try constraint.checkUsable()
        guard constraint.layout === layout, constraint.origin == .equation else {
            throw LayoutError(.invalid, "`\(constraint)` is not an equation constraint of `\(view.name)`'s layout")
        }
        guard constraint.firstAttribute.axis == direction.axis else {
            throw LayoutError(.invalid, "`\(constraint)` is \(constraint.firstAttribute.axis); collapsing \(direction) needs a \(direction.axis) constraint")
        }
        self.view = view
        self.constraint = constraint
        self.direction = direction
        shownConstant = constraint.constant
    }

    /// How much a unit change of the constant moves the view along the axis.
    var effect: Double {
        var e = 1.0
        if constraint.firstView !== view, constraint.secondView === view, constraint.multiplier != 0 {
            e = -1 / constraint.multiplier
        }
        if constraint.isDirectional, constraint.firstView.effectiveLayoutDirection == .rightToLeft,
           direction.axis == .horizontal {
            e = -e
        }
        return e
    }

    /// The constant that puts the view fully off by its current size (solving first if needed).
    public var collapsedConstant: Double {
        view.layout?.layoutIfNeeded()
        let f = view.frameInRoot
        let size = abs(direction.axis == .horizontal ? f.width : f.height)
        return shownConstant + direction.sign * size / effect
    }

    /// Collapses the view (see `Collapsible`).
    /// - Parameters:
    ///   - animated: through the animator (default) or at once.
    ///   - duration, curve: for the animation; nil uses `duration` and `curve`.
    ///   - completion: called once, with `finished` (at the next frame when not animated).
    /// - Returns: the animation (nil when not animated).
    /// - Throws: `.stale`, `.unsatisfiable` (not animated; nothing changes), `.invalid`.
    @discardableResult
    public func collapse(animated: Bool = true, duration: Double? = nil, curve: AnimationCurve? = nil,
                         completion: ((_ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Animation? {
        try setCollapsed(true, animated: animated, duration: duration, curve: curve, completion: completion)
    }

    /// Shows the view again: the constant goes back to `shownConstant` (see `collapse`).
    @discardableResult
    public func show(animated: Bool = true, duration: Double? = nil, curve: AnimationCurve? = nil,
                     completion: ((_ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Animation? {
        try setCollapsed(false, animated: animated, duration: duration, curve: curve, completion: completion)
    }

    /// Collapses a shown view, shows a collapsed one (see `collapse`).
    @discardableResult
    public func toggle(animated: Bool = true, duration: Double? = nil, curve: AnimationCurve? = nil,
                       completion: ((_ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Animation? {
        try setCollapsed(!isCollapsed, animated: animated, duration: duration, curve: curve, completion: completion)
    }

    /// Collapses (`true`) or shows (`false`) the view (see `collapse`).
    @discardableResult
    public func setCollapsed(_ collapsed: Bool, animated: Bool = true, duration: Double? = nil,
                             curve: AnimationCurve? = nil,
                             completion: ((_ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Animation? {
        let layout = try view.checkUsable()
        _ = try constraint.checkUsable()
        let target = collapsed ? collapsedConstant : shownConstant
        if animated {
            let a = try layout.animator.animate(constraint, to: target, duration: duration ?? self.duration,
                                                curve: curve ?? self.curve, completion: completion)
            isCollapsed = collapsed
            return a
        }
        let animator = layout.animator
        animator.stopAnimating(.constant(constraint))
        try constraint.setConstant(target)
        isCollapsed = collapsed
        if let completion {
            // Fires at the next frame, like every completion.
            try animator.animate([], duration: 0, completion: completion)
        }
        return nil
    }
}

extension Layout {
    /// Makes `view` collapsible through `constraint` in `direction` (see `Collapsible`).
    public func collapsible(_ view: View, constraint: LayoutConstraint,
                            direction: CollapseDirection) throws(LayoutError) -> Collapsible {
        guard view.layout === self else { throw LayoutError(.invalid, "`\(view.name)` is not a view of this layout") }
        return try Collapsible(view: view, constraint: constraint, direction: direction)
    }

    // MARK: - Keyboard

    /// Shows the keyboard: animates the `keyboard` guide's height to `height` with the keyboard's own
    /// duration and curve (UIKit sends both with its keyboard notifications; default 0.25 s, `.easeInOut`).
    /// Constraints attached to the guide (`form.bottom == keyboard.top - 8`) follow, frame by frame. Calling
    /// it again mid-animation retargets smoothly.
    /// - Throws: `.invalid` for a negative or non-finite height, duration or delay.
    @discardableResult
    public func showKeyboard(height: Double, duration: Double = 0.25, curve: AnimationCurve = .easeInOut,
                             delay: Double = 0,
                             completion: ((_ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Animation {
        try animator.animate([(.keyboardHeight, height)], duration: duration, curve: curve, delay: delay,
                             completion: completion)
    }

    /// Hides the keyboard: animates the `keyboard` guide's height back to 0, so constraints attached to it
    /// return to where they were (see `showKeyboard`).
    @discardableResult
    public func hideKeyboard(duration: Double = 0.25, curve: AnimationCurve = .easeInOut, delay: Double = 0,
                             completion: ((_ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Animation {
        try showKeyboard(height: 0, duration: duration, curve: curve, delay: delay, completion: completion)
    }

    /// True when the keyboard is shown or showing: its height is headed above 0 (`Animator.targetValue`).
    public var isKeyboardVisible: Bool {
        (_animator?.targetValue(of: .keyboardHeight) ?? keyboardHeight) > 0
    }
}
