// Moa — the layout's clock and its animations. Time only moves when the caller says so (`advance(by:)`,
// `seek(to:)`); each frame sets the animated constants, priorities and sizes to their values at that time
// (in place, one incremental re-solve each) and solves. Nothing reads the wall clock or starts a thread.

/// Something of a layout an animation can move.
public enum AnimatableProperty: Hashable {
    /// A constraint's constant (`LayoutConstraint.setConstant`): an equation's, or an intrinsic-size
    /// constraint's (which moves the view's intrinsic size on that axis; kept at 0 or above).
    case constant(LayoutConstraint)
    /// A constraint's priority (`LayoutConstraint.setPriority`). Between the first and the last frame the value
    /// is rounded to a whole number and kept within 1...999: a constraint never becomes required (1000)
    /// mid-animation, and a required one becomes optional from the first frame; a target of 1000 is set at the
    /// last frame only (which fails, as `setPriority` would, if it cannot hold). (From 1000 to 1000 it stays
    /// required.)
    case priority(LayoutConstraint)
    /// The root's width (`Layout.setRootSize`), kept at 0 or above.
    case rootWidth
    /// The root's height (`Layout.setRootSize`), kept at 0 or above.
    case rootHeight
    /// The keyboard guide's height (`Layout.setKeyboardHeight`), kept at 0 or above.
    case keyboardHeight
}

/// The clock of a layout and the animations running on it. Get it with `Layout.animator`.
///
/// **Time.** `time` starts at 0 and moves only with `advance(by:)` and `seek(to:)` (forward only). Each such
/// call is a *frame*: animations due to start begin, every animated property is set to its value at the new
/// time, the layout is solved, the frame is recorded (when recording), and completions due fire. Values are
/// computed from the elapsed time in closed form, so the same calls give bit-identical frames, whatever the
/// step sizes before them.
///
/// **Animations.** `animate(...)` moves properties (`AnimatableProperty`) from their value when the animation
/// starts (its call time plus `delay`) to targets over `duration` seconds along a curve. An animation starting
/// on a property that is already animating *retargets* it: the new animation starts from the old one's value at
/// that moment (no jump) and, for a spring without an explicit `initialVelocity`, with the old one's velocity
/// at that moment (Bézier curves included); the old animation loses that property. Until a delayed animation
/// starts, whatever moved the property before keeps moving it.
///
/// **Completions** fire once each, at the first frame at or past the moment the animation ended, after that
/// frame was solved (so they see its frames). `finished` is true when every property reached its target, false
/// when one was taken over by a newer animation, stopped, cancelled or failed. When several fire in one frame
/// they fire in order of the moment they ended (their end time, or the moment they were interrupted), then in
/// the order the animations were made (`Animation.id`). A completion may start animations (they start at the
/// frame's time) but may not advance the clock.
///
/// **Setting an animated property directly** (`setConstant`, `setRootSize`, ...) while it animates lasts until
/// the next frame, which sets the animated value again; call `stopAnimating(_:)` first.
///
/// **Failures** during a frame (a removed constraint, a required priority that cannot hold) stop the
/// animation of that property (its animation will report `finished == false`); the errors are in
/// `frameErrors` until the next frame.
public final class Animator {
    /// The layout this animator moves (nil once the layout is gone).
    public var layout: Layout? { link.layout }
    let link: LayoutLink
    /// The clock: seconds since the layout was made, as advanced by the caller.
    public private(set) var time: Double = 0
    /// The number of frames so far (calls of `advance(by:)` and `seek(to:)`).
    public private(set) var frameCount = 0
    /// The errors of the last frame: properties that could not be set, whose animations were stopped.
    public private(set) var frameErrors: [LayoutError] = []

    /// Animations waiting for their start, and running tracks, in the order they were made. A cancelled
    /// animation and a removed track stay in them, marked, until a compaction (`cancelledScheduled`,
    /// `deadTracks` count them): cancelling each of n animations was O(n) a cancel.
    var scheduled: [Animation] = []
    var active: [Track] = []
    var cancelledScheduled = 0
    var deadTracks = 0
    /// The animations running or waiting for their delay, by id.
    var liveByID: [Int: Animation] = [:]
    var trackFor: [AnimatableProperty: Track] = [:]
    var endedQueue: [Animation] = []
    var nextID = 1
    var busy = false
    var recorded: [FrameSnapshot]?
    var recordGuides = false

    init(layout: Layout) { link = layout.link }

    func usableLayout() throws(LayoutError) -> Layout {
        guard let layout else { throw LayoutError(.stale, "the animator's layout is gone") }
        return layout
    }

    // MARK: - Animating

    /// Animates several properties together: one animation, one completion.
    ///
    /// - Parameters:
    ///   - targets: each property with its target value; a property may appear once.
    ///   - duration: seconds (0 or more) for Bézier curves; ignored by springs (they last until settled).
    ///   - curve: the timing curve (default `.easeInOut`).
    ///   - delay: seconds (0 or more) from now to the start.
    ///   - completion: called once with `finished` (see `Animator`).
    /// - Returns: the animation, to cancel it or read its state.
    /// - Throws: `.invalid` for non-finite or out-of-range numbers, an invalid curve, a property named twice,
    ///   a constraint of another layout or one the layout owns (root size, guides: animate `.rootWidth`,
    ///   `.keyboardHeight` instead); `.stale` for a removed constraint. Nothing starts on error.
    @discardableResult
    public func animate(_ targets: [(AnimatableProperty, Double)], duration: Double = 0.3,
                        curve: AnimationCurve = .easeInOut, delay: Double = 0,
                        completion: ((_ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Animation {
        try animate(targets, duration: duration, curve: curve, delay: delay, owned: false, completion: completion)
    }

    /// `animate`, also for constraints a stack or chain owns (`owned`), which only their owner animates.
    func animate(_ targets: [(AnimatableProperty, Double)], duration: Double, curve: AnimationCurve,
                 delay: Double, owned: Bool,
                 completion: ((_ finished: Bool) -> Void)?) throws(LayoutError) -> Animation {
        let layout = try usableLayout()
        // Times beyond 1e12 s would lose the clock's precision (and no animation lasts 30,000 years).
        guard duration.isFinite, duration >= 0, duration <= Layout.maxTime else {
            throw LayoutError(.invalid, "animation duration \(formatNumber(duration)) must be finite, 0...1e12 seconds")
        }
        guard delay.isFinite, delay >= 0, delay <= Layout.maxTime else {
            throw LayoutError(.invalid, "animation delay \(formatNumber(delay)) must be finite, 0...1e12 seconds")
        }
        guard curve.isValid else { throw LayoutError(.invalid, "invalid timing curve \(curve)") }
        var seen = Set<AnimatableProperty>()
        for (p, v) in targets {
            guard seen.insert(p).inserted else {
                throw LayoutError(.invalid, "\(describe(p)) is animated twice in one animation")
            }
            try check(p, v, layout, owned: owned)
        }
        let a = Animation(id: nextID, animator: self, targets: targets, startTime: time + delay, duration: duration,
                          delay: delay, curve: curve, completion: completion)
        nextID += 1
        scheduled.append(a)
        liveByID[a.id] = a
        return a
    }

    /// Animates one constraint's constant to `constant`. See `animate(_:duration:curve:delay:completion:)`.
    @discardableResult
    public func animate(_ constraint: LayoutConstraint, to constant: Double, duration: Double = 0.3,
                        curve: AnimationCurve = .easeInOut, delay: Double = 0,
                        completion: ((_ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Animation {
        try animate([(.constant(constraint), constant)], duration: duration, curve: curve, delay: delay,
                    completion: completion)
    }

    /// Animates one constraint's priority to `priority` (1...1000; see `AnimatableProperty.priority` for
    /// how it passes 1000). See `animate(_:duration:curve:delay:completion:)`.
    @discardableResult
    public func animate(_ constraint: LayoutConstraint, priority: Double, duration: Double = 0.3,
                        curve: AnimationCurve = .easeInOut, delay: Double = 0,
                        completion: ((_ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Animation {
        try animate([(.priority(constraint), priority)], duration: duration, curve: curve, delay: delay,
                    completion: completion)
    }

    /// Animates the root's size (both sides, in one animation; each frame sets both with one
    /// `setRootSize` call). See `animate(_:duration:curve:delay:completion:)`.
    @discardableResult
    public func animateRootSize(width: Double, height: Double, duration: Double = 0.3,
                                curve: AnimationCurve = .easeInOut, delay: Double = 0,
                                completion: ((_ finished: Bool) -> Void)? = nil) throws(LayoutError) -> Animation {
        try animate([(.rootWidth, width), (.rootHeight, height)], duration: duration, curve: curve, delay: delay,
                    completion: completion)
    }

    func describe(_ p: AnimatableProperty) -> String {
        switch p {
        case .constant(let c): return "the constant of `\(c)`"
        case .priority(let c): return "the priority of `\(c)`"
        case .rootWidth: return "the root width"
        case .rootHeight: return "the root height"
        case .keyboardHeight: return "the keyboard height"
        }
    }

    func check(_ p: AnimatableProperty, _ v: Double, _ layout: Layout, owned: Bool = false) throws(LayoutError) {
        switch p {
        case .constant(let c), .priority(let c):
            guard c.isValid else { throw LayoutError(.stale, "constraint `\(c)` was removed from its layout") }
            guard c.layout === layout else { throw LayoutError(.invalid, "`\(c)` is not a constraint of this layout") }
            switch c.origin {
            case .equation, .intrinsic: break
            case .rootSize, .guide: throw LayoutError(.invalid, layout._ownedMessage(c) + " (animate .rootWidth, .rootHeight or .keyboardHeight)")
            case .arrangement: if !owned { throw LayoutError(.invalid, layout._ownedMessage(c)) }
            }
            if case .constant = p {
                guard v.isFinite, abs(v) <= 1e12 else {
                    throw LayoutError(.invalid, "constant \(formatNumber(v)) must be finite, within ±1e12")
                }
                if case .intrinsic = c.origin, !(v >= 0 && v <= 1e9) {
                    throw LayoutError(.invalid, "intrinsic size \(formatNumber(v)) must be finite, 0...1e9")
                }
            } else {
                guard LayoutPriority.isValid(v) else {
                    throw LayoutError(.invalid, "priority \(formatNumber(v)) is outside 1...1000")
                }
            }
        case .rootWidth, .rootHeight:
            guard v.isFinite, v >= 0, v <= 1e9 else {
                throw LayoutError(.invalid, "root size \(formatNumber(v)) must be finite, 0...1e9")
            }
        case .keyboardHeight:
            guard v.isFinite, v >= 0, v <= 1e9 else {
                throw LayoutError(.invalid, "keyboard height \(formatNumber(v)) must be finite, 0...1e9")
            }
        }
    }

    // MARK: - Stopping

    /// Stops the running animation of `property` where it is now (its value at `time`); the animation it
    /// belonged to will report `finished == false`. Animations that have not started yet are not affected.
    public func stopAnimating(_ property: AnimatableProperty) {
        guard let tr = trackFor[property] else { return }
        removeTrack(tr)
        tr.animation.trackEnded(at: time, finished: false)
    }

    /// Stops the running animations of a constraint's constant and priority (see `stopAnimating(_:)`).
    public func stopAnimating(_ constraint: LayoutConstraint) {
        stopAnimating(.constant(constraint))
        stopAnimating(.priority(constraint))
    }

    /// Cancels every animation, running or waiting for its delay; all report `finished == false` at the next
    /// frame, and values stay where they are.
    public func cancelAll() {
        for a in scheduled where a.state == .scheduled { a.cancel() }
        for tr in active where tr.isLive { tr.animation.cancel() }
    }

    /// True when the property has a running animation.
    public func isAnimating(_ property: AnimatableProperty) -> Bool { trackFor[property] != nil }

    /// True while any animation is running or waiting for its delay, or a completion is due.
    public var isAnimating: Bool {
        active.count > deadTracks || scheduled.count > cancelledScheduled || !endedQueue.isEmpty
    }

    /// The animations running or waiting for their delay, in the order they were made.
    public var animations: [Animation] {
        var seen = Set<ObjectIdentifier>()
        var out: [Animation] = []
        for tr in active where tr.isLive && seen.insert(ObjectIdentifier(tr.animation)).inserted { out.append(tr.animation) }
        for a in scheduled where a.state == .scheduled { out.append(a) }
        return out.sorted { $0.id < $1.id }
    }

    /// The animation `id` while it runs or waits for its delay; nil once it ended (or for an id never made).
    public func animation(id: Int) -> Animation? { liveByID[id] }

    /// The value `property` has now (at `time`, as last set).
    public func currentValue(of property: AnimatableProperty) -> Double {
        switch property {
        case .constant(let c): return c.constant
        case .priority(let c): return c.priority
        case .rootWidth: return layout?.rootWidth ?? 0
        case .rootHeight: return layout?.rootHeight ?? 0
        case .keyboardHeight: return layout?.keyboardHeight ?? 0
        }
    }

    /// Where `property` is headed: the target of the scheduled animation naming it that starts last (then
    /// the last made), else of its running animation, else its current value.
    public func targetValue(of property: AnimatableProperty) -> Double {
        let last = scheduled.filter { a in a.state == .scheduled && a.targets.contains { $0.0 == property } }
            .max { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
        if let last, let t = last.targets.first(where: { $0.0 == property }) { return t.1 }
        return trackFor[property]?.to ?? currentValue(of: property)
    }

    /// The velocity of `property` now (units per second): its running animation's, or 0.
    public func velocity(of property: AnimatableProperty) -> Double {
        trackFor[property]?.velocity(at: time) ?? 0
    }

    // MARK: - The clock

    /// Moves the clock forward by `dt` seconds and makes a frame (see `Animator`).
    /// - Returns: the views whose frame changed in this frame.
    /// - Throws: `.invalid` for a negative or non-finite `dt`, or when called from a completion; `.stale`
    ///   when the layout is gone.
    @discardableResult
    public func advance(by dt: Double) throws(LayoutError) -> [View] {
        views(try _advance(by: dt))
    }

    /// `advance(by:)` with the views as serials and frame slots: a binding that hands out numbers makes no
    /// array of 100,000 references for a frame in which every view moves.
    package func _advance(by dt: Double) throws(LayoutError) -> [ChangedView] {
        guard dt.isFinite, dt >= 0 else {
            throw LayoutError(.invalid, "time step \(formatNumber(dt)) must be finite and >= 0")
        }
        return try _seek(to: time + dt)
    }

    /// Moves the clock forward to `t` and makes a frame (`t == time` makes a frame without moving time: it
    /// applies animations started since and fires completions due).
    /// - Returns: the views whose frame changed in this frame.
    /// - Throws: `.invalid` for a time before `time` (the clock never goes back) or not finite, or when called
    ///   from a completion; `.stale` when the layout is gone.
    @discardableResult
    public func seek(to t: Double) throws(LayoutError) -> [View] {
        views(try _seek(to: t))
    }

    /// `seek(to:)` with the views as serials and slots, as `_advance(by:)`.
    package func _seek(to t: Double) throws(LayoutError) -> [ChangedView] {
        let layout = try usableLayout()
        guard t.isFinite else { throw LayoutError(.invalid, "time \(formatNumber(t)) must be finite") }
        guard t >= time else {
            throw LayoutError(.invalid, "time \(formatNumber(t)) is before the clock (\(formatNumber(time))); the clock only moves forward")
        }
        guard !busy else { throw LayoutError(.invalid, "the clock cannot be advanced from an animation completion") }
        try layout.checkNotMeasuring()   // (a font's advance function is measuring too)
        return step(to: t, layout)
    }

    /// Seeks to `t` (see `seek(to:)`) and returns the frames there.
    public func frames(at t: Double, includeGuides: Bool = false) throws(LayoutError) -> FrameSnapshot {
        let layout = try usableLayout()
        _ = try _seek(to: t)
        return layout.snapshot(time: t, includeGuides: includeGuides)
    }

    /// Advances in steps of `1 / fps` seconds until no animation is running, waiting or due, or `limit`
    /// seconds have passed.
    /// - Returns: the number of frames made.
    /// - Throws: as `advance(by:)`, and `.invalid` for an `fps` that is not positive and finite.
    @discardableResult
    public func runUntilIdle(fps: Double = 60, limit: Double = 60) throws(LayoutError) -> Int {
        guard fps.isFinite, fps > 0 else { throw LayoutError(.invalid, "fps \(formatNumber(fps)) must be positive") }
        let t0 = time
        var i = 0
        while isAnimating, time - t0 < limit {
            i += 1
            _ = try _seek(to: t0 + Double(i) / fps)
        }
        return i
    }

    /// The views a frame listed (those a completion removed since are left out).
    func views(_ changed: [ChangedView]) -> [View] {
        guard let layout else { return [] }
        return changed.compactMap { layout.view(serial: $0.serial) }
    }

    /// Makes the frame at `t`; returns the views whose frame changed in it (none when nothing needed a solve),
    /// taken before the completions run (one may solve again).
    func step(to t: Double, _ layout: Layout) -> [ChangedView] {
        busy = true
        defer { busy = false }
        frameErrors = []
        // 1. Animations due start, in order of start time, then of creation.
        if scheduled.contains(where: { $0.startTime <= t && $0.state == .scheduled }) {
            var due = scheduled.filter { $0.startTime <= t && $0.state == .scheduled }
            scheduled.removeAll { $0.startTime <= t || $0.state != .scheduled }
            cancelledScheduled = 0
            due.sort { ($0.startTime, $0.id) < ($1.startTime, $1.id) }
            for a in due { start(a) }
        }
        // 2. Every running property to its value at t, in the order the tracks were made.
        var done: [Track] = []
        var failed: [(Track, LayoutError)] = []
        var rootW: Double?, rootH: Double?, keyboard: Double?
        var rootTracks: [Track] = [], keyboardTracks: [Track] = []
        for tr in active where tr.isLive {
            let finished = t >= tr.end
            let v = tr.value(at: t)
            if finished { done.append(tr) }
            guard let p = tr.property else { continue }
            do throws(LayoutError) {
                switch p {
                case .constant(let c):
                    var x = v
                    if case .intrinsic = c.origin { x = max(0, x) }
                    if c.constant != x {
                        if case .arrangement = c.origin { try layout._setOwnedConstant(c, x) } else { try c.setConstant(x) }
                    }
                case .priority(let c):
                    var x = finished ? v : min(LayoutPriority.maxNonRequired, max(1, v.rounded()))
                    if tr.from >= LayoutPriority.required, tr.to >= LayoutPriority.required { x = LayoutPriority.required }
                    if c.priority != x { try c.setPriority(x) }
                case .rootWidth: rootW = max(0, v); rootTracks.append(tr)
                case .rootHeight: rootH = max(0, v); rootTracks.append(tr)
                case .keyboardHeight: keyboard = max(0, v); keyboardTracks.append(tr)
                }
            } catch {
                failed.append((tr, error))
            }
        }
        if rootW != nil || rootH != nil {
            let w = rootW ?? layout.rootWidth, h = rootH ?? layout.rootHeight
            if w != layout.rootWidth || h != layout.rootHeight {
                do throws(LayoutError) { try layout.setRootSize(width: w, height: h) } catch {
                    for tr in rootTracks { failed.append((tr, error)) }
                }
            }
        }
        if let keyboard, keyboard != layout.keyboardHeight {
            do throws(LayoutError) { try layout.setKeyboardHeight(keyboard) } catch {
                for tr in keyboardTracks { failed.append((tr, error)) }
            }
        }
        var failedIDs = Set<ObjectIdentifier>()
        for (tr, error) in failed where failedIDs.insert(ObjectIdentifier(tr)).inserted {
            frameErrors.append(error)
            removeTrack(tr)
            tr.animation.trackEnded(at: t, finished: false)
        }
        for tr in done where !failedIDs.contains(ObjectIdentifier(tr)) {
            removeTrack(tr)
            tr.animation.trackEnded(at: tr.end, finished: true)
        }
        // 3. Solve, record, then completions.
        time = t
        frameCount += 1
        // A frame whose measured content fails keeps the last frames; the failure is reported with the frame's
        // other errors.
        var changed: [ChangedView] = []
        var solved = false
        do { if try layout._layoutIfNeeded() { changed = layout.changed; solved = true } } catch { frameErrors.append(error) }
        if recorded != nil { recorded!.append(layout.snapshot(time: t, includeGuides: recordGuides)) }
        guard !endedQueue.isEmpty else { return changed }
        // Completions may move views and solve: those views are this frame's too (a host that redraws from the
        // frame's changed views must see them), so their solves add to the frame's list.
        if !solved { layout.forgetChanged() }
        layout.keepsChanged = true
        let solvesBefore = layout.solveCount
        while !endedQueue.isEmpty {
            let due = endedQueue.sorted { ($0.endedAt, $0.id) < ($1.endedAt, $1.id) }
            endedQueue = []
            for a in due { a.fire() }
        }
        layout.keepsChanged = false
        return layout.solveCount != solvesBefore ? layout.changed : changed
    }

    /// Starts `a` at its start time: each property leaves its value at that moment (a running animation's
    /// value and velocity there, which that animation loses), or its current value.
    func start(_ a: Animation) {
        a.state = .running
        let s = a.startTime
        var ends: [Double] = []
        for (p, target) in a.targets {
            var from: Double, velocity = 0.0
            if let old = trackFor[p] {
                removeTrack(old)
                if old.end <= s {
                    from = old.to
                    old.animation.trackEnded(at: old.end, finished: true)
                } else {
                    from = old.value(at: s)
                    velocity = old.velocity(at: s)
                    old.animation.trackEnded(at: s, finished: false)
                }
            } else {
                from = currentValue(of: p)
            }
            let tr = Track(property: p, animation: a, from: from, to: target, start: s, duration: a.duration,
                           curve: a.curve, velocity: velocity)
            addTrack(tr)
            ends.append(tr.end)
        }
        if a.targets.isEmpty {
            // Nothing to move: the animation is a timer of its duration (springs: none).
            let tr = Track(property: nil, animation: a, from: 0, to: 0, start: s, duration: a.duration,
                           curve: a.curve, velocity: 0)
            addTrack(tr)
            ends.append(tr.end)
        }
        a.plannedEnd = ends.max() ?? s
    }

    func addTrack(_ tr: Track) {
        active.append(tr)
        tr.animation.remaining += 1
        if let p = tr.property { trackFor[p] = tr }
    }

    /// Takes `tr` out of the running tracks (marked; `active` is compacted once half of it is removed).
    func removeTrack(_ tr: Track) {
        if let p = tr.property, trackFor[p] === tr { trackFor[p] = nil }
        guard tr.isLive else { return }
        tr.isLive = false
        deadTracks += 1
        if deadTracks > 32 && 2 * deadTracks > active.count {
            active.removeAll { !$0.isLive }
            deadTracks = 0
        }
    }

    // MARK: - Recording

    /// Starts recording: the current frames (at `time`) and those of every following frame are kept, until
    /// `stopRecording()`. Starting again discards what was recorded.
    public func startRecording(includeGuides: Bool = false) {
        recordGuides = includeGuides
        recorded = layout.map { [$0.snapshot(time: time, includeGuides: includeGuides)] } ?? []
    }

    /// True between `startRecording()` and `stopRecording()`.
    public var isRecording: Bool { recorded != nil }

    /// The frames recorded so far (empty when not recording).
    public var recording: FrameTrace { FrameTrace(recorded ?? []) }

    /// Stops recording and returns what was recorded.
    @discardableResult
    public func stopRecording() -> FrameTrace {
        let t = recording
        recorded = nil
        return t
    }

    /// Samples the layout at `fps` from `t0` to `t1`: seeks to `t0 + i / fps` for i = 0, 1, ... while that is
    /// at most `t1` (within 1e-9 s), and returns the frames there. The clock ends at the last sample.
    /// - Throws: `.invalid` when `t0` is before `time`, `t1 < t0`, or `fps` is not positive and finite (or
    ///   asks for more than 1e6 samples); as `seek(to:)`.
    public func trace(from t0: Double, to t1: Double, fps: Double,
                      includeGuides: Bool = false) throws(LayoutError) -> FrameTrace {
        let layout = try usableLayout()
        guard fps.isFinite, fps > 0 else { throw LayoutError(.invalid, "fps \(formatNumber(fps)) must be positive") }
        guard t0.isFinite, t1.isFinite, t1 >= t0 else {
            throw LayoutError(.invalid, "trace interval \(formatNumber(t0))...\(formatNumber(t1)) is empty or not finite")
        }
        let span = (t1 - t0) * fps + 1e-9 * fps
        guard span < 1e6 else { throw LayoutError(.invalid, "a trace of more than 1e6 samples") }
        let n = Int(span.rounded(.down))
        var out: [FrameSnapshot] = []
        for i in 0...n {
            let t = t0 + Double(i) / fps
            try seek(to: t)
            out.append(layout.snapshot(time: t, includeGuides: includeGuides))
        }
        return FrameTrace(out)
    }
}

/// One animation made by `Animator.animate`: several properties moving together, one completion.
public final class Animation: CustomStringConvertible {
    /// Where an animation is in its life.
    public enum State: Sendable {
        /// Made, waiting for its start time (`Animation.startTime`).
        case scheduled
        /// Moving its properties.
        case running
        /// Ended (finished, taken over, stopped, cancelled or failed); its completion has fired or fires at the
        /// next frame.
        case ended
    }

    /// A number unique within the animator, increasing in the order animations are made (the tie-break of
    /// the completion order).
    public let id: Int
    /// The properties and their targets.
    public let targets: [(AnimatableProperty, Double)]
    /// The time the animation starts: the clock when it was made, plus `delay`.
    public let startTime: Double
    /// The duration given (springs ignore it).
    public let duration: Double
    /// The delay given.
    public let delay: Double
    /// The timing curve.
    public let curve: AnimationCurve
    /// Where the animation is in its life.
    public internal(set) var state = State.scheduled
    /// Once ended: true when every property reached its target; false when one was taken over, stopped or
    /// failed, or the animation was cancelled. Nil before.
    public internal(set) var finished: Bool?
    /// True once the completion has been called (or would have been, without one).
    public internal(set) var hasFiredCompletion = false

    weak var animator: Animator?
    var completion: ((Bool) -> Void)?
    var remaining = 0
    var allFinished = true
    var endedAt = -Double.infinity
    var plannedEnd: Double?

    init(id: Int, animator: Animator, targets: [(AnimatableProperty, Double)], startTime: Double, duration: Double,
         delay: Double, curve: AnimationCurve, completion: ((Bool) -> Void)?) {
        self.id = id
        self.animator = animator
        self.targets = targets
        self.startTime = startTime
        self.duration = duration
        self.delay = delay
        self.curve = curve
        self.completion = completion
    }

    /// When the animation ends: once running, the time its last property reaches its target (for springs,
    /// the settling time); once ended, the moment it ended. Nil while scheduled.
    public var endTime: Double? {
        switch state {
        case .scheduled: return nil
        case .running: return plannedEnd
        case .ended: return endedAt
        }
    }

    /// `animation 3 (easeInOut, 0.3 s, running)`.
    public var description: String {
        "animation \(id) (\(curve), \(formatNumber(duration)) s, \(state))"
    }

    /// Cancels the animation: a running one stops where it is (values stay at their current values), a
    /// scheduled one never starts. Its completion fires with `finished == false` at the next frame. Does
    /// nothing once the animation ended.
    public func cancel() {
        guard let animator else { return }
        switch state {
        case .scheduled:
            animator.cancelledScheduled += 1
            if animator.cancelledScheduled > 32 && 2 * animator.cancelledScheduled > animator.scheduled.count {
                animator.scheduled.removeAll { $0 === self || $0.state != .scheduled }
                animator.cancelledScheduled = 0
            }
            allFinished = false
            endedAt = animator.time
            state = .ended
            animator.liveByID[id] = nil
            finished = false
            animator.endedQueue.append(self)
        case .running:
            // Its tracks: the track of each of its properties (`trackFor`), or a timer's own.
            var mine: [Track] = []
            if targets.isEmpty {
                mine = animator.active.filter { $0.isLive && $0.animation === self }
            } else {
                for (p, _) in targets { if let tr = animator.trackFor[p], tr.animation === self { mine.append(tr) } }
            }
            for tr in mine {
                animator.removeTrack(tr)
                trackEnded(at: animator.time, finished: false)
            }
        case .ended:
            break
        }
    }

    func trackEnded(at t: Double, finished ok: Bool) {
        remaining -= 1
        if !ok { allFinished = false }
        endedAt = max(endedAt, t)
        if remaining == 0, state == .running {
            state = .ended
            animator?.liveByID[id] = nil
            finished = allFinished
            animator?.endedQueue.append(self)
        }
    }

    func fire() {
        guard !hasFiredCompletion else { return }
        hasFiredCompletion = true
        let c = completion
        completion = nil
        c?(finished ?? false)
    }
}

/// One property moving within an animation: from, to, start, end and the curve, evaluated in closed form.
final class Track {
    let property: AnimatableProperty?
    /// False once removed from the animator's running tracks.
    var isLive = true
    let animation: Animation
    let from: Double, to: Double, start: Double, end: Double
    let bezier: BezierSolver?   // nil for linear progress and for springs
    let duration: Double
    let spring: SpringMotion?

    init(property: AnimatableProperty?, animation: Animation, from: Double, to: Double, start: Double,
         duration: Double, curve: AnimationCurve, velocity: Double) {
        self.property = property
        self.animation = animation
        self.from = from
        self.to = to
        self.start = start
        if case .spring(let s) = curve {
            let m = SpringMotion(s, displacement: from - to, velocity: s.initialVelocity ?? velocity)
            spring = m
            bezier = nil
            self.duration = property == nil ? 0 : m.settlingTime
        } else {
            let b = curve.timingFunction ?? .linear
            spring = nil
            bezier = b.isLinear ? nil : b.solver
            self.duration = duration
        }
        end = start + self.duration
    }

    func value(at t: Double) -> Double {
        if t >= end { return to }
        let e = t - start
        if e <= 0 { return from }
        if let spring { return to + spring.displacement(at: e) }
        let x = e / duration
        let y = bezier.map { $0.sampleY($0.parameter(forX: x)) } ?? x
        return from + (to - from) * y
    }

    func velocity(at t: Double) -> Double {
        if t >= end { return 0 }
        let e = t - start
        if let spring { return spring.velocity(at: max(0, e)) }
        if e < 0 { return 0 }
        let x = e / duration
        let k = bezier.map { $0.slope(atParameter: $0.parameter(forX: x)) } ?? 1
        return (to - from) * k / duration
    }
}

extension Layout {
    /// The layout's clock and animations (made on first use; it lives as long as the layout).
    public var animator: Animator {
        if let a = _animator { return a }
        let a = Animator(layout: self)
        _animator = a
        return a
    }
}
