// Moa — arrangements: stacks, chains and barriers. Each generates ordinary layout constraints from its members
// and properties, keeps them current as those change (adding, removing and re-keying only what differs, so an
// unchanged rule keeps its constraint and a changed constant changes in place or animates), and names itself and
// the rule in conflicts (`stack 'toolbar': equal spacing`). The solver never knows they exist.

/// One constraint an arrangement wants: what it says, the rule it comes from (for messages) and, when it is new
/// in an animated change, the constant it starts from (where the views are now), so it animates from there.
struct ArrangedRule {
    var spec: Spec
    var rule: String
    var initial: Double? = nil
}

/// An owned constraint's identity across updates: the same views, attributes, relation, multiplier, priority
/// and rule are the same constraint (its constant may change).
struct OwnedKey: Hashable {
    var key: ConstraintKey
    var rule: String

    /// The key's cheap mix and the rule's length (`==` compares the rule): hashing the rule's text for every
    /// rule of every update was a fifth of appending to a large stack.
    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(rule.utf8.count)
    }
}

/// A run of an arrangement's rules and everything it is made from: the views it names (by identity), the
/// states and numbers it reads, and the arrangement's properties (`stamp`). Two equal sections make the same
/// rules, so an update keeps the constraints of every section equal to one of the last update's and makes the
/// rules of the others only: appending to a stack of n views makes a handful of rules, not all of them again
/// (5,000 appends took 41 s when every update made and compared every rule).
///
/// `at` says where the named views are in the arrangement's member list for `Arrangement.rules(for:)`; it is not
/// part of the identity (a view moved up by an insert before it keeps its sections).
struct RuleSection: Hashable {
    var kind: UInt8
    var flags: UInt16 = 0
    var stamp: UInt32 = 0
    var index = 0
    var a: ObjectIdentifier? = nil
    var b: ObjectIdentifier? = nil
    var c: ObjectIdentifier? = nil
    var x = 0.0
    var y = 0.0
    var at: (Int32, Int32, Int32) = (-1, -1, -1)

    static func == (l: RuleSection, r: RuleSection) -> Bool {
        l.kind == r.kind && l.flags == r.flags && l.stamp == r.stamp && l.index == r.index && l.a == r.a
            && l.b == r.b && l.c == r.c && l.x == r.x && l.y == r.y
    }

    func hash(into h: inout Hasher) {
        h.combine(kind); h.combine(flags); h.combine(stamp); h.combine(index)
        h.combine(a); h.combine(b); h.combine(c); h.combine(x); h.combine(y)
    }
}

/// How an arrangement change animates: the layout's clock moves the changed constants (see `Animator`).
public struct ArrangeAnimation: Sendable {
    /// Seconds.
    public var duration: Double
    /// The timing curve.
    public var curve: AnimationCurve

    /// Creates an animation description.
    public init(duration: Double = 0.3, curve: AnimationCurve = .easeInOut) {
        self.duration = duration
        self.curve = curve
    }
}

/// The common part of `StackView`, `Chain` and `Barrier`: the constraints it owns and the update that keeps them
/// equal to its rules. Subclasses say what the rules are (`rules()`) and what to do when members are removed
/// from the layout (`membersRemoved(_:)`).
public class Arrangement {
    /// How messages name the arrangement, e.g. `stack 'toolbar'`.
    public var title: String { "arrangement" }
    /// The layout (nil once it is gone).
    public var layout: Layout? { link.layout }
    let link: LayoutLink
    /// False once the arrangement ended (its view was removed, or `remove()` was called).
    public internal(set) var isValid = true
    var owned: [OwnedKey: LayoutConstraint] = [:]
    /// Guides the arrangement made (spacers) and owns.
    var spacers: [View] = []
    /// Spacers made since the last update (their making is undone if the update fails).
    var newSpacers: [View] = []
    /// Whether the current `rules()` pass works out where new rules start (`ArrangedRule.initial`): only an
    /// animated update uses it, and it reads the views' frames.
    var computesInitials = false
    /// The sections of the last update and, beside each, the constraints its rules have; nil when unknown (the
    /// first update, or after an update was undone or members were removed): the next update then makes every
    /// rule and compares it with what the arrangement owns.
    var lastSections: [RuleSection]? = nil
    var lastSectionConstraints: [[LayoutConstraint]] = []
    /// Set by an update that animates constants: until the next update, constants may sit anywhere between
    /// where they were and their rules' (a running animation, one cancelled or one that did not finish), so the
    /// next update compares every rule again, as a stack update always did (a hiding view stayed half hidden
    /// when an update without animation kept its section during the animation).
    var constantsMayDiffer = false
    /// Bumped by each `ruleSections()` of an arrangement that makes its rules in one section (always made again).
    private var wholeStamp = 0

    init(layout: Layout) { link = layout.link }

    /// Forgets the sections of the last update (see `lastSections`).
    func forgetSections() {
        lastSections = nil
        lastSectionConstraints = []
    }

    /// A check for tests (not API): the rules made again from the current members and properties, all of them,
    /// against the constraints the arrangement owns (the same keys and constants, each held by as many sections
    /// as it counts); a description of the first difference, or nil. Constants are compared unless an animation
    /// may have left them on their way (`constantsMayDiffer`).
    public func _rulesProblem() -> String? {
        var want: [OwnedKey: (constant: Double, sections: Int32)] = [:]
        for section in ruleSections() {
            var inSection = Set<OwnedKey>()
            for r in rules(for: section) {
                let k = OwnedKey(key: r.spec.key, rule: r.rule)
                guard inSection.insert(k).inserted else { continue }
                want[k, default: (r.spec.constant, 0)].sections += 1
                want[k]!.constant = r.spec.constant
            }
        }
        var owned = 0
        for (k, c) in self.owned where c.isValid {
            owned += 1
            guard let w = want[k] else { return "owns `\(c)` (\(k.rule)), which no rule makes" }
            if w.constant != c.constant, !constantsMayDiffer {
                return "`\(c)` (\(k.rule)) has constant \(c.constant), the rule \(w.constant)"
            }
            if lastSections != nil, w.sections != c.arrangementUses {
                return "`\(c)` (\(k.rule)) counts \(c.arrangementUses) sections, \(w.sections) hold it"
            }
        }
        if owned != want.count {
            let missing = want.keys.filter { k in self.owned[k].map { !$0.isValid } ?? true }
            return "\(want.count - owned) rules have no constraint, e.g. \(missing.first.map { "\($0.key) (\($0.rule))" } ?? "?")"
        }
        return nil
    }

    /// The constraints the arrangement keeps now, in the order they were made.
    public var constraints: [LayoutConstraint] { owned.values.filter(\.isValid).sorted { $0.id < $1.id } }

    /// The rules as of the current members and properties, for an arrangement that makes them in one section.
    func rules() -> [ArrangedRule] { [] }

    /// The sections of the rules as of the current members and properties, in the order their rules are made
    /// (see `RuleSection`). By default one section, made again at every update (`rules()`).
    func ruleSections() -> [RuleSection] {
        wholeStamp += 1
        return [RuleSection(kind: .max, index: wholeStamp)]
    }

    /// The rules of one section of the current `ruleSections()`.
    func rules(for section: RuleSection) -> [ArrangedRule] { rules() }

    /// The views whose removal from the layout ends the arrangement (a stack's own view, a barrier's guide).
    var hostView: View? { nil }

    /// Called by `Layout.removeView` after the views in `doomed` left the layout: drop them from the members.
    func membersRemoved(_ doomed: Set<ObjectIdentifier>) {}

    func usableLayout() throws(LayoutError) -> Layout {
        guard isValid, let layout else { throw LayoutError(.stale, "\(title) was removed from its layout") }
        return layout
    }

    /// A rule `a.attr REL b.attr2 * multiplier + constant @ priority`.
    func rule(_ a: View, _ attr: LayoutAttribute, _ rel: LayoutRelation, _ b: View?, _ attr2: LayoutAttribute?,
              multiplier: Double = 1, constant: Double = 0, priority: Double = LayoutPriority.required,
              weight: Double = 1, _ name: String, initial: @autoclosure () -> Double? = nil) -> ArrangedRule {
        ArrangedRule(spec: Spec(first: a, firstAttribute: attr, relation: rel, second: b, secondAttribute: attr2,
                                multiplier: multiplier, divisor: nil, constant: constant, priority: priority,
                                weight: weight),
                     rule: name, initial: computesInitials ? initial() : nil)
    }

    /// `first.attr - second.attr2` (or `first.attr` alone): as of the last solve (where the views are drawn
    /// now: where a new rule starts animating), or with `live` from the solver's current values (after
    /// `updateVariables`, for a trial).
    func distance(_ a: View, _ attr: LayoutAttribute, from b: View?, _ attr2: LayoutAttribute?,
                  live: Bool = false) -> Double {
        guard let layout else { return 0 }
        func value(_ v: View, _ x: LayoutAttribute) -> Double {
            let e = v.expression(for: x)
            var s = e.constant
            let f = v.frameInRoot
            for t in e.terms {
                let frame: [Double] = [f.x, f.y, f.width, f.height]
                if !live, let i = v.variables.firstIndex(of: t.variable) {
                    s += t.coefficient * frame[i]
                } else {
                    s += t.coefficient * layout.value(t.variable)
                }
            }
            return s
        }
        return value(a, attr) - (b.map { value($0, attr2!) } ?? 0)
    }

    /// A spacer guide (`owner#gapN`) in `parent`, made on first use; owned, parked until a rule uses it.
    ///
    /// A spacer made for the gap after view `previous` along `axis` ranks just above `previous`'s position in
    /// the solver (`Solver.placeRank`), as if made right after it: `spacer.leading == previous.trailing` then
    /// defines the spacer's position and `spacer.trailing == next.leading` the next view's, so a chain spread
    /// over spacers is a chain of definitions, as one glued by constants is. (Made after its views, the spacer
    /// ranked above them, and each view's position went into a row that held every gap before it: a spread
    /// chain of 1,000 views filled 2.5M cells in 7.7 s.)
    func spacer(_ i: Int, in parent: View, prefix: String, after previous: View? = nil,
                axis: LayoutAxis = .horizontal) -> View? {
        guard let layout else { return nil }
        while spacers.count <= i {
            var name = "\(prefix)#gap\(spacers.count + 1)"
            var k = 1
            while layout.byName[name] != nil { k += 1; name = "\(prefix)#gap\(spacers.count + 1)_\(k)" }
            let g = layout.makeView(name, .layoutGuide, superview: parent)
            g.isOwned = true
            if let previous, spacers.count == i {
                let (position, size) = axis == .horizontal ? (0, 2) : (1, 3)
                let anchor = previous.variables[position]
                if (try? layout.solver.placeRank(of: g.variables[size], justAbove: anchor)) == true {
                    _ = try? layout.solver.placeRank(of: g.variables[position], justAbove: anchor)
                }
            }
            spacers.append(g)
            newSpacers.append(g)
        }
        return spacers[i]
    }

    /// Rules that keep the spacers from `used` on fully determined: at the parent's top-left, size zero.
    func parkedSpacerRules(except used: Set<Int> = []) -> [ArrangedRule] {
        var out: [ArrangedRule] = []
        for (k, g) in spacers.enumerated() where !used.contains(k) {
            out += spacerCrossRules(g, axis: .horizontal, parent: g.superview!, park: true)
        }
        return out
    }

    /// A spacer's size across `axis` is zero and it sits at the parent's edge on that side (and, when parked,
    /// along the axis too), so it is never ambiguous.
    func spacerCrossRules(_ g: View, axis: LayoutAxis, parent: View, park: Bool = false) -> [ArrangedRule] {
        var out: [ArrangedRule] = []
        if axis == .horizontal || park {
            out.append(rule(g, .top, .equal, parent, .top, "spacer"))
            out.append(rule(g, .height, .equal, nil, nil, "spacer"))
        }
        if axis == .vertical || park {
            out.append(rule(g, .left, .equal, parent, .left, "spacer"))
            out.append(rule(g, .width, .equal, nil, nil, "spacer"))
        }
        return out
    }
}

extension LayoutConstraint {
    /// The rule of a constraint an arrangement owns (part of its `OwnedKey`); "" for any other.
    var arrangementRule: String {
        if case .arrangement(_, let rule) = origin { return rule }
        return ""
    }
}

extension Layout {
    /// Brings the arrangement's constraints to its rules inside a transaction: constraints whose rule went away
    /// are removed, new ones made and installed, changed constants set (or, with `animation`, left where they
    /// are and returned as animation targets; new rules then start at their `initial` constant). Only the rules
    /// of sections that differ from the last update's are made and compared (`RuleSection`); the others keep
    /// their constraints untouched.
    /// - Returns: the constants to animate, and constraints whose running animation must stop (set directly).
    func _rearrange(_ a: Arrangement, animated: Bool, _ j: inout Journal) throws(LayoutError)
        -> (targets: [(AnimatableProperty, Double)], stop: [LayoutConstraint]) {
        let sections = a.ruleSections()
        let known = a.constantsMayDiffer ? nil : a.lastSections
        let old = known ?? []
        var oldConstraints: [[LayoutConstraint]] = []
        swap(&oldConstraints, &a.lastSectionConstraints)
        a.lastSections = nil
        // Undone, the update leaves the sections unknown (the next update compares every rule).
        j.record { a.forgetSections() }
        let matches = Self.matchSections(sections, old)

        // The constraints that may go: those of the last update's sections that are gone or changed (every owned
        // constraint when the sections are unknown). Each section that holds a constraint counts once.
        var candidates: [LayoutConstraint] = []
        if known == nil {
            for c in a.owned.values { c.arrangementUses = 0; candidates.append(c) }
        } else {
            for (m, matched) in matches.oldMatched.enumerated() where !matched {
                for c in oldConstraints[m] { c.arrangementUses -= 1; candidates.append(c) }
            }
        }

        // The rules of the sections that changed or are new; the others keep their constraints.
        a.computesInitials = animated
        var made: [(section: Int, rule: ArrangedRule, key: OwnedKey)] = []
        var newConstraints = [[LayoutConstraint]](repeating: [], count: sections.count)
        for i in sections.indices {
            if let m = matches.newToOld[i] {
                swap(&newConstraints[i], &oldConstraints[m])
                continue
            }
            // A key given twice in a section is one constraint, where the first was, with the last one's constant.
            let first = made.count
            let rules = a.rules(for: sections[i])
            var seen: [OwnedKey: Int]? = rules.count > 16 ? [:] : nil
            for r in rules {
                let k = OwnedKey(key: r.spec.key, rule: r.rule)
                if let at = seen != nil ? seen![k] : made[first...].firstIndex(where: { $0.key == k }) {
                    made[at].rule = r
                    continue
                }
                seen?[k] = made.count
                if let c = a.owned[k], c.isValid { c.arrangementUses += 1 }
                made.append((i, r, k))
            }
        }
        a.computesInitials = false
        for g in a.newSpacers {
            j.record { [unowned self] in
                if let i = a.spacers.lastIndex(where: { $0 === g }) { a.spacers.remove(at: i) }
                self._unmakeView(g)
            }
        }
        a.newSpacers = []

        var stop: [LayoutConstraint] = []
        // Gone first (latest first: cheap for the solver), so new rules never meet the ones they replace.
        var gone = candidates.filter { $0.arrangementUses <= 0 || !$0.isValid }
        gone.sort { $0.id > $1.id }
        for c in gone {
            if c.isValid { _discard(c, &j); stop.append(c) }
            let k = OwnedKey(key: c.key, rule: c.arrangementRule)
            if a.owned[k] === c {
                a.owned[k] = nil
                j.record { a.owned[k] = c }
            }
        }
        var targets: [(AnimatableProperty, Double)] = []
        var updated: [LayoutConstraint] = []
        var fresh: [LayoutConstraint] = []
        let firstFreshID = nextConstraintID
        for (i, r, k) in made {
            let constant = r.spec.constant
            if let c = a.owned[k], c.isValid {
                if c.id >= firstFreshID { c.arrangementUses += 1 }   // made for an earlier section of this update
                newConstraints[i].append(c)
                if animated && Self.moves(c.constant, to: constant) {
                    targets.append((.constant(c), constant))
                } else if animated {
                    // Rounding apart: set, not animated, so that the constant is the rule's.
                    if c.constant != constant {
                        try _setConstant(c, constant, &j, refresh: false)
                        updated.append(c)
                    }
                } else {
                    stop.append(c)
                    if c.constant != constant {
                        try _setConstant(c, constant, &j, refresh: false)
                        updated.append(c)
                    }
                }
                continue
            }
            var s = r.spec
            if animated, let start = r.initial, start.isFinite { s.constant = start }
            let c = makeConstraint(s, origin: .arrangement(owner: a.title, rule: r.rule))
            c.arrangementUses = 1
            byID[c.id] = c
            let previous = a.owned[k]
            a.owned[k] = c
            j.record { [unowned self] in self.byID[c.id] = nil; a.owned[k] = previous; c.isValid = false }
            fresh.append(c)
            newConstraints[i].append(c)
            if Self.moves(s.constant, to: constant) { targets.append((.constant(c), constant)) }
        }
        try _refreshGroup(updated, &j)
        for c in fresh { try _install(c, &j) }
        a.lastSections = sections
        a.lastSectionConstraints = newConstraints
        // Still so while animations run: callers that rearrange inside another change (a view moved out of the
        // stack) do not stop them, so the next update must stop and set them.
        let differed = a.constantsMayDiffer
        a.constantsMayDiffer = (animated && !targets.isEmpty) || (differed && _animator?.isAnimating == true)
        j.record { a.constantsMayDiffer = differed }
        return (targets, stop)
    }

    /// How many sections ahead `matchSections` looks for what was inserted, removed or changed.
    static let matchWindow = 4

    /// Whether an animated update animates a constant from `a` to `b`: not for rounding (a trial solve's distance
    /// differs from the same distance read from the frames in the last bits, and the layout's history decides
    /// which way: an animated show right after a hide animated for 1.5 s, or took over at once).
    static func moves(_ a: Double, to b: Double) -> Bool { abs(a - b) > 1e-9 * max(1, abs(a), abs(b)) }

    /// Pairs each new section with an equal one of the last update's, walking both lists together; where they
    /// differ, the walk goes on from the nearest pair of places, at most `matchWindow` sections ahead in each,
    /// where they agree again (what lies before it in the new list is new, in the old one gone: inserted,
    /// removed and changed sections, also several at one place, as a view put in front of a stack makes in
    /// each kind of section); where there is none, by a table of the last update's sections not yet paired. Any
    /// pairing of equal sections is right; a better one only makes fewer rules again. (Resuming only after
    /// an insertion, a removal or a change alone, a view put in front fell back on the table every time: a
    /// hash of every section, 60% of putting 2,000 views in front of a stack one at a time.)
    static func matchSections(_ new: [RuleSection], _ old: [RuleSection])
        -> (newToOld: [Int?], oldMatched: [Bool]) {
        var newToOld = [Int?](repeating: nil, count: new.count)
        var oldMatched = [Bool](repeating: false, count: old.count)
        var i = 0, o = 0
        var table: [RuleSection: Int]? = nil
        while i < new.count {
            if table == nil {
                if o < old.count, new[i] == old[o] {
                    newToOld[i] = o; oldMatched[o] = true; i += 1; o += 1; continue
                }
                if o >= old.count { i += 1; continue }   // the rest is new
                let w = Self.matchWindow
                var resume: (Int, Int)? = nil
                search: for d in 1 ... 2 * w {
                    for di in max(0, d - w) ... min(d, w) where i + di < new.count && o + d - di < old.count {
                        if new[i + di] == old[o + d - di] { resume = (di, d - di); break search }
                    }
                }
                if let (di, dj) = resume { i += di; o += dj; continue }
                var t: [RuleSection: Int] = [:]
                t.reserveCapacity(old.count - o)
                for k in o..<old.count where !oldMatched[k] { t[old[k]] = k }
                table = t
            }
            if let k = table![new[i]], !oldMatched[k] {
                newToOld[i] = k; oldMatched[k] = true
                table![new[i]] = nil
            }
            i += 1
        }
        return (newToOld, oldMatched)
    }

    /// Runs `change` and rearranges `a` as one call, all or nothing; animates the changed constants on the
    /// layout's clock when `animation` is given.
    /// - Parameters:
    ///   - change: sets the arrangement's properties, recording how to undo them in the journal.
    ///   - completion: called once the animation ends (`finished` as for `Animator`); at the next frame when
    ///     nothing animates.
    /// - Returns: the animation (a zero-length one that carries the completion when nothing moves), or nil.
    @discardableResult
    func _updateArrangement(_ a: Arrangement, animation: ArrangeAnimation? = nil,
                            _ change: (inout Journal) throws(LayoutError) -> Void = { _ in },
                            completion: ((Bool) -> Void)? = nil, rearrange: Bool = true) throws(LayoutError)
        -> Animation? {
        _ = try a.usableLayout()
        if let animation {
            guard animation.duration.isFinite, animation.duration >= 0, animation.duration <= 1e12 else {
                throw LayoutError(.invalid, "animation duration \(formatNumber(animation.duration)) must be finite, 0...1e12 seconds")
            }
            guard animation.curve.isValid else { throw LayoutError(.invalid, "invalid timing curve \(animation.curve)") }
            try layoutIfNeeded()   // new rules start from where the views are now (a failing measure fails)
        }
        let (targets, stop) = try _transaction { (j: inout Journal) throws(LayoutError) in
            try change(&j)
            return rearrange ? try _rearrange(a, animated: animation != nil, &j) : ([], [])
        }
        if let anim = _animator {
            let moving = Set(targets.map { $0.0 })
            for c in stop where !moving.contains(.constant(c)) { anim.stopAnimating(.constant(c)) }
        }
        if let animation, !targets.isEmpty {
            return try animator.animate(targets, duration: animation.duration, curve: animation.curve, delay: 0,
                                        owned: true, completion: completion)
        }
        // Nothing moves over time: the completion fires at the next frame, like every completion.
        guard let completion else { return nil }
        return try animator.animate([], duration: 0, completion: completion)
    }

    /// Takes a view that has no constraints out of the layout (an owned spacer whose making is undone, or
    /// whose owner ended).
    func _unmakeView(_ v: View) {
        guard v.isValid else { return }
        releaseFrames(v)
        for x in v.variables {
            try? solver.removeVariable(x)
            if x.index < viewByVariable.count { viewByVariable[x.index] = nil }
        }
        v.isValid = false
        byName[v.name] = nil
        viewBySerial.remove(at: v.serial)
        if let p = v.superview, let i = p.subviews.lastIndex(where: { $0 === v }) { p.subviews.remove(at: i) }
        v.superview = nil
        allViews.noteRemoved()
        needsLayout = true
    }

    /// Sets an owned constraint's constant for the animator (one frame of an arrangement's animation).
    func _setOwnedConstant(_ c: LayoutConstraint, _ value: Double) throws(LayoutError) {
        _ = try c.checkUsable()
        try _transaction { (j: inout Journal) throws(LayoutError) in try _setConstant(c, value, &j) }
    }

    /// After `removeView`: arrangements whose view went away end; the others drop removed members and
    /// rearrange (best effort: if the rest could not hold, they keep what they had).
    func _arrangementsAfterRemoving(_ doomed: Set<ObjectIdentifier>, views: [View]) {
        guard !arrangements.isEmpty else { return }
        // Stacks know their members by a pointer from each view (removing one leaf does not visit every
        // stack); chains and barriers are few and are asked.
        var touchedStacks = Set<ObjectIdentifier>()
        for v in views { if let s = v.arrangingStack { touchedStacks.insert(ObjectIdentifier(s)) } }
        var kept: [Arrangement] = []
        for a in arrangements {
            if let h = a.hostView, doomed.contains(ObjectIdentifier(h)) || !h.isValid {
                a.isValid = false
                // Latest first (see `Chain.remove`).
                for c in a.constraints.reversed() { _uninstallNow(c); byID[c.id] = nil; c.isValid = false }
                a.owned = [:]
                a.forgetSections()
                continue
            }
            kept.append(a)
            if a is StackView, !touchedStacks.contains(ObjectIdentifier(a)) { continue }
            a.membersRemoved(doomed)
            a.forgetSections()   // constraints that named the removed views are gone already
            var j = Journal()
            do throws(LayoutError) {
                _ = try _rearrange(a, animated: false, &j)
            } catch {
                _undo(j)
            }
        }
        arrangements = kept
    }
}
