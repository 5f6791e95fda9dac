// Moa — collapse / show: a view that slides fully off its superview's edge along one constraint, and back.

/// The way a collapsing view leaves.
public enum CollapseDirection: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Off its superview's left edge.
    case left
    /// Off its superview's right edge.
    case right
    /// Off its superview's top edge.
    case up
    /// Off its superview's bottom edge.
    case down

    /// The axis it moves along.
    public var axis: LayoutAxis { self == .left || self == .right ? .horizontal : .vertical }

    /// `"left"`, `"right"`, `"up"` or `"down"`.
    public var description: String { rawValue }

    /// -1 towards smaller coordinates (left, up), +1 towards larger ones.
    var sign: Double { self == .left || self == .up ? -1 : 1 }
}

/// A view that collapses (slides fully off its superview's edge) and shows again, by changing one constraint's
/// constant: the `Collapsible` idea.
///
/// The constraint's constant when the collapsible is made is the *shown* constant. Collapsing changes it so
/// that the view ends flush outside its superview's edge in the direction, as of the last solve (the layout is
/// solved first if needed): it moves by its distance to that edge plus its width (left, right) or height (up,
/// down). For `left` with `sidebar.left == superview.left + 16`, the collapsed constant is `-width` (not
/// `16 - width`, which would leave 16 points on screen); when the view is the constraint's second view
/// (`root.left == sidebar.left + c`) the change is divided by `-multiplier`, and it is mirrored for a
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

    /// The constant that puts the view flush outside its superview's edge in the direction (solving first if
    /// needed): from where the shown constant puts it, it moves by its distance to that edge plus its size (for
    /// `left`: its x + width; for `right`: the superview's width - x). A view already off that way at the shown
    /// constant does not move.
    public var collapsedConstant: Double {
        _ = try? view.layout?.layoutIfNeeded()   // a failing measure keeps the last frames
        let horizontal = direction.axis == .horizontal
        let f = view.frame
        let size = abs(horizontal ? f.width : f.height)
        // Where the shown constant puts the view (the constant may be elsewhere now: collapsed, animating).
        let shownAt = (horizontal ? f.x : f.y) + (shownConstant - constraint.constant) * effect
        let room = view.superview.map { horizontal ? $0.frame.width : $0.frame.height } ?? 0
        let distance = direction.sign < 0 ? shownAt + size : room - shownAt
        return shownConstant + direction.sign * max(0, distance) / effect
    }

    /// Collapses the view (see `Collapsible`).
    /// - Parameters:
    ///   - animated: through the animator (default) or at once.
    ///   - duration, curve: for the animation; nil uses `duration` and `curve`.
    ///   - completion: called once, with `finished` (at the next frame when not animated).
    /// - Returns: the animation (nil when not animated).
    /// - Throws: `.stale`, `.unsatisfiable` (not animated; nothing changes), `.invalid` (also for a collapsed
    ///   constant beyond `Layout.maxLength`). Collapsing solves first if the layout needs it
    ///   (`collapsedConstant`); that solve stands when the call then fails.
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
