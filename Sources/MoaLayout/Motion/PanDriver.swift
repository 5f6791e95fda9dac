// Moa — a pan gesture driving constraint constants: follow the finger, cap fast swipes, refuse drags past a
// limit, and on release snap (animated) to a rest position.

/// Drives one or more constraints' constants along an axis from pan-gesture events (as a
/// `UIPanGestureRecognizer` handler would), and snaps them to rest positions when the finger lifts.
///
/// All constraints move by the same *offset* from their *base* constants (their constants when the driver is
/// made): constant = base + offset. Rest positions are offsets (e.g. `[0, -rootWidth]` for two side-by-side
/// panels: the first shown, or the second).
///
/// **While dragging** (`began`, then `changed(translation:velocity:)`, translation and velocity along the
/// axis since `began`, positive right/down):
/// - the offset follows the finger point by point: offset = start + translation, where start is the offset at
///   `began` (a running snap is stopped where it is, and its completion reports `finished == false`);
/// - a fast swipe (|velocity| > `fastSwipeVelocity`, default 400 points/s) moves at most `fastSwipeStep`
///   (default 20) per event from the current offset towards the finger;
/// - the offset never goes further than `dragLimit` from the start (default half the root's width for the
///   horizontal axis, half its height for the vertical one, taken at `began`): further drag is refused (held at
///   the limit).
///
/// **On release** (`ended(velocity:)`): a fast swipe snaps to the next rest position in the swipe's direction
/// from the current offset (or, when there is none that way, the nearest); otherwise to the nearest rest
/// position, a tie going the way the drag went (so a drag of exactly half the width, the default limit,
/// goes over). The snap is animated through the layout's `Animator` (`snapDuration`, default 0.3 s, and
/// `snapCurve`, default `.easeInOut`, UIKit's default animation curve; a spring without an initial velocity starts with the release velocity) and
/// its completion reports the rest position.
///
/// **Gating.** While `isEnabled` is false, or the layout's orientation is not in `orientations`, every event is
/// ignored (returns false / nil): the calculator pans between its panels in portrait only
/// (`orientations = .portrait`), since landscape shows both. Turning it off mid-drag, or a rotation to an
/// orientation it is not allowed in, ends the drag as a slow release would (a rotation: at the next event).
public final class PanDriver {
    /// The constraints the driver moves.
    public let constraints: [LayoutConstraint]
    /// The axis of the gesture (and of the constraints).
    public let axis: LayoutAxis
    /// The constraints' constants at offset 0 (their constants when the driver was made).
    public let baseConstants: [Double]
    /// The rest positions (offsets) a release snaps to; at least one. Default `[0]`.
    public var restPositions: [Double]
    /// Events are ignored while false. Turning it off mid-drag ends the drag (snapping to the nearest rest).
    public var isEnabled = true {
        didSet {
            if !isEnabled, isDragging { _ = try? release(velocity: 0, completion: nil) }
        }
    }
    /// The orientations of the layout (`Layout.orientation`, from its root size) in which events are taken
    /// (default both). A rotation into another one ends a drag in progress at its next event.
    public var orientations: Orientations = .all
    /// True when events are taken: enabled, and the layout in one of `orientations`.
    public var isActive: Bool {
        guard isEnabled, let layout else { return false }
        return orientations.contains(layout.orientation.mask)
    }
    /// The speed, in points per second, above which a drag counts as a fast swipe (default 400).
    public var fastSwipeVelocity: Double = 400
    /// The most a fast swipe moves per event (default 20 points).
    public var fastSwipeStep: Double = 20
    /// How far from its start a drag may go; nil (the default) for half the root's width (horizontal) or
    /// height (vertical) at `began`.
    public var dragLimit: Double?
    /// The snap animation's duration (default 0.3 s; springs ignore it).
    public var snapDuration: Double = 0.3
    /// The snap animation's curve (default `.easeInOut`, as UIKit animates by default).
    public var snapCurve: AnimationCurve = .easeInOut
    /// Called with the rest position each time a snap reaches it.
    public var onRest: ((_ restPosition: Double) -> Void)?

    /// True between `began` and `ended`/`cancelled`.
    public private(set) var isDragging = false
    /// The offset when the current (or last) drag began.
    public private(set) var dragStartOffset: Double = 0
    /// The rest position last reached (initially the one nearest the starting offset, 0).
    public private(set) var restPosition: Double
    /// The rest position the running snap heads for, or nil.
    public private(set) var targetRestPosition: Double?
    /// The running snap animation, or nil.
    public private(set) var snapAnimation: Animation?

    var activeLimit: Double = 0

    /// Makes a driver over `constraints` (their current constants become the base constants).
    /// - Throws: `.invalid` for no constraints, a constraint listed twice, constraints of different layouts,
    ///   constraints that are not equations or not on `axis`, no or non-finite rest positions; `.stale` for a
    ///   removed constraint.
    public init(constraints: [LayoutConstraint], axis: LayoutAxis, restPositions: [Double] = [0]) throws(LayoutError) {
        guard let first = constraints.first else { throw LayoutError(.invalid, "a pan driver needs at least one constraint") }
        let layout = try first.checkUsable()
        for (i, c) in constraints.enumerated() {
            _ = try c.checkUsable()
            // Each is moved once per offset: one listed twice would be animated twice in one snap (which fails).
            guard !constraints[..<i].contains(where: { $0 === c }) else {
                throw LayoutError(.invalid, "`\(c)` is listed twice")
            }
            guard c.layout === layout, c.origin == .equation else {
                throw LayoutError(.invalid, "`\(c)` is not an equation constraint of the same layout")
            }
            guard c.firstAttribute.axis == axis else {
                throw LayoutError(.invalid, "`\(c)` is not on the \(axis) axis")
            }
        }
        guard !restPositions.isEmpty else { throw LayoutError(.invalid, "a pan driver needs a rest position") }
        if let bad = restPositions.first(where: { !Layout.isLength($0) }) {
            throw LayoutError(.invalid, "rest position \(formatNumber(bad)) must be finite, within ±1e9")
        }
        self.constraints = constraints
        self.axis = axis
        self.restPositions = restPositions
        baseConstants = constraints.map(\.constant)
        restPosition = PanDriver.nearest(restPositions, to: 0, travel: 0)
    }

    var layout: Layout? { constraints[0].layout }

    /// The current offset: the first constraint's constant minus its base.
    public var offset: Double { constraints[0].constant - baseConstants[0] }

    /// The index of `restPosition` in `restPositions`, or nil when the list no longer holds it.
    public var restIndex: Int? { restPositions.firstIndex(of: restPosition) }

    /// The finger went down: stops a running snap where it is and starts a drag from the current offset.
    /// - Returns: false when ignored (disabled, or not in one of `orientations`).
    /// - Throws: `.stale` when a constraint or the layout is gone.
    @discardableResult
    public func began() throws(LayoutError) -> Bool {
        guard try takesEvent() else { return false }
        guard let layout else { throw LayoutError(.stale, "the pan driver's layout is gone") }
        for c in constraints { _ = try c.checkUsable() }
        for c in constraints { layout.animator.stopAnimating(.constant(c)) }
        snapAnimation = nil
        targetRestPosition = nil
        dragStartOffset = offset
        activeLimit = max(0, dragLimit ?? (axis == .horizontal ? layout.rootWidth : layout.rootHeight) / 2)
        isDragging = true
        return true
    }

    /// The finger moved: `translation` since `began` and the current `velocity` (points/s), along the axis.
    /// - Returns: false when ignored (disabled, not in one of `orientations`, or no drag in progress).
    /// - Throws: `.invalid` for non-finite numbers; `.unsatisfiable` if a required constraint cannot take the
    ///   new constants (nothing moves); `.stale`.
    @discardableResult
    public func changed(translation: Double, velocity: Double) throws(LayoutError) -> Bool {
        // Arguments first: a bad number fails even when the event would be ignored.
        guard translation.isFinite, velocity.isFinite else {
            throw LayoutError(.invalid, "pan translation and velocity must be finite")
        }
        guard try takesEvent(), isDragging else { return false }
        let desired = min(max(dragStartOffset + translation, dragStartOffset - activeLimit), dragStartOffset + activeLimit)
        let current = offset
        var next = desired
        if abs(velocity) > fastSwipeVelocity {
            next = current + min(max(desired - current, -fastSwipeStep), fastSwipeStep)
        }
        try apply(next)
        return true
    }

    /// The finger lifted with `velocity` (points/s along the axis): snaps to a rest position (see
    /// `PanDriver`).
    /// - Parameter completion: called once when the snap ends, with the rest position and whether it was
    ///   reached (false when a new drag or animation took over first).
    /// - Returns: the rest position it snaps to, or nil when ignored (disabled, not in one of `orientations`, or
    ///   no drag in progress).
    /// - Throws: `.invalid` for a non-finite velocity; `.stale`.
    @discardableResult
    public func ended(velocity: Double,
                      completion: ((_ restPosition: Double, _ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Double? {
        guard velocity.isFinite else { throw LayoutError(.invalid, "pan velocity must be finite") }
        guard try takesEvent(), isDragging else { return nil }
        return try release(velocity: velocity, completion: completion)
    }

    /// The gesture was cancelled: snaps back to the rest position nearest to where the drag began.
    /// - Returns: that rest position, or nil when ignored (disabled, or no drag in progress).
    @discardableResult
    public func cancelled(completion: ((_ restPosition: Double, _ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Double? {
        guard try takesEvent(), isDragging else { return nil }
        isDragging = false
        let target = PanDriver.nearest(restPositions, to: dragStartOffset, travel: 0)
        do throws(LayoutError) {
            try snap(to: target, velocity: 0, animated: true, completion: completion)
        } catch {
            isDragging = true   // a failed call changes nothing: the drag goes on
            throw error
        }
        return target
    }

    /// Moves to an offset outside a gesture (e.g. a rest position after rotation), animated (with the snap
    /// duration and curve) or at once. A running drag ends.
    /// - Throws: `.invalid` for a non-finite offset; `.unsatisfiable` (not animated; nothing moves); `.stale`.
    public func move(to restPosition: Double, animated: Bool = true,
                     completion: ((_ restPosition: Double, _ finished: Bool) -> Void)? = nil) throws(LayoutError) {
        guard Layout.isLength(restPosition) else {
            throw LayoutError(.invalid, "pan offset \(formatNumber(restPosition)) must be finite, within ±1e9")
        }
        isDragging = false
        try snap(to: restPosition, velocity: 0, animated: animated, completion: completion)
    }

    /// True when an event is taken (`isActive`). A drag in progress when the layout rotated into an orientation
    /// the driver is not allowed in ends here, as a slow release.
    func takesEvent() throws(LayoutError) -> Bool {
        if isActive { return true }
        if isDragging, isEnabled { _ = try release(velocity: 0, completion: nil) }
        return false
    }

    func release(velocity: Double,
                 completion: ((_ restPosition: Double, _ finished: Bool) -> Void)?) throws(LayoutError) -> Double {
        isDragging = false
        let current = offset
        var target: Double?
        if abs(velocity) > fastSwipeVelocity {
            let dir: Double = velocity > 0 ? 1 : -1
            let ahead = restPositions.filter { ($0 - current) * dir > 1e-9 }
            target = dir > 0 ? ahead.min() : ahead.max()
        }
        let t = target ?? PanDriver.nearest(restPositions, to: current, travel: current - dragStartOffset)
        do throws(LayoutError) {
            try snap(to: t, velocity: velocity, animated: true, completion: completion)
        } catch {
            isDragging = true   // a failed call changes nothing: the drag goes on
            throw error
        }
        return t
    }

    /// The rest position nearest `x`; on a tie (within 1e-9) the one in the direction of `travel`, or the
    /// first listed when there was none.
    static func nearest(_ rests: [Double], to x: Double, travel: Double) -> Double {
        var best = rests[0]
        for r in rests.dropFirst() {
            let d = abs(r - x), bd = abs(best - x)
            if d < bd - 1e-9 {
                best = r
            } else if abs(d - bd) <= 1e-9, (travel > 0 && r > best) || (travel < 0 && r < best) {
                best = r
            }
        }
        return best
    }

    func apply(_ offset: Double) throws(LayoutError) {
        let old = constraints.map(\.constant)
        for (i, c) in constraints.enumerated() {
            do throws(LayoutError) {
                try c.setConstant(baseConstants[i] + offset)
            } catch {
                for k in 0..<i { try? constraints[k].setConstant(old[k]) }
                throw error
            }
        }
    }

    func snap(to target: Double, velocity: Double, animated: Bool,
              completion: ((_ restPosition: Double, _ finished: Bool) -> Void)?) throws(LayoutError) {
        guard let layout else { throw LayoutError(.stale, "the pan driver's layout is gone") }
        let animator = layout.animator
        if !animated {
            for c in constraints { animator.stopAnimating(.constant(c)) }
            try apply(target)
            snapAnimation = nil
            targetRestPosition = nil
            restPosition = target
            if let completion { try animator.animate([], duration: 0) { _ in completion(target, true) } }
            return
        }
        var curve = snapCurve
        if case .spring(var s) = curve, s.initialVelocity == nil {
            s.initialVelocity = velocity
            curve = .spring(s)
        }
        let targets = constraints.enumerated().map { (AnimatableProperty.constant($0.element), baseConstants[$0.offset] + target) }
        var token: Animation?
        let a = try animator.animate(targets, duration: snapDuration, curve: curve) { [weak self] finished in
            if let self, self.snapAnimation === token {
                self.snapAnimation = nil
                self.targetRestPosition = nil
                if finished { self.restPosition = target }
            }
            if finished { self?.onRest?(target) }
            completion?(target, finished)
        }
        token = a
        snapAnimation = a
        targetRestPosition = target
    }
}
