// Moa — a layout constraint: `first.attr REL second.attr * multiplier + constant @ priority`, as a handle.

import MoaSolver

/// Where a layout constraint comes from.
public enum ConstraintOrigin: Hashable, Sendable {
    /// An equation given to `eq`/`eqs` (or a `size`/`pin` line expanded into several).
    case equation
    /// An intrinsic-size constraint of a view: compression resistance (`>=`) or hugging (`<=`) on an axis.
    case intrinsic(LayoutAxis, ContentRole)
    /// The root's size or origin (set with `Layout.setRootSize`).
    case rootSize
    /// One of the constraints that place a layout guide (`safeArea`, `margins`, `keyboard`).
    case guide
    /// A constraint a stack, chain or barrier made and keeps current: `owner` names it (`stack 'toolbar'`),
    /// `rule` says which of its rules (`equal spacing`). Change the owner, not the constraint.
    case arrangement(owner: String, rule: String)
}

/// A constraint of a layout, as a handle: `firstView.firstAttribute REL secondView.secondAttribute *
/// multiplier + constant @ priority`. Without a second view it is `firstView.firstAttribute REL constant`
/// (an absolute width or height).
///
/// The constant, priority and active state can change in place (one incremental re-solve each). Every change
/// is all-or-nothing: a required constraint that could not hold makes the call throw `.unsatisfiable` and
/// nothing changes. After `xeq`, `Layout.remove(_:)` or the removal of one of its views, the handle is stale
/// and its methods throw `.stale`.
public final class LayoutConstraint: Hashable, CustomStringConvertible {
    /// A number unique within the layout (never reused); `Layout.constraint(id:)` finds the constraint by it.
    public let id: Int
    /// The view on the left side.
    public let firstView: View
    /// The attribute on the left side.
    public let firstAttribute: LayoutAttribute
    /// `==`, `<=` or `>=`.
    public let relation: LayoutRelation
    /// The view on the right side, or nil for an absolute width/height.
    public let secondView: View?
    /// The attribute on the right side, or nil for an absolute width/height.
    public let secondAttribute: LayoutAttribute?
    /// The multiplier of the right side (1 by default; `/ d` gives `1/d`).
    public let multiplier: Double
    /// The divisor when the equation was written with `/ d` (printed back that way).
    let divisor: Double?
    /// The constant added on the right side. Change with `setConstant(_:)`.
    public internal(set) var constant: Double
    /// The priority, 1...1000 (1000 is required). Change with `setPriority(_:)`.
    public internal(set) var priority: Double
    /// What made the constraint.
    public let origin: ConstraintOrigin
    /// The line (1-based) of the `eqs` text the constraint came from (the latest line that set its constant),
    /// or nil when it came from `eq` or is not an equation.
    public internal(set) var line: Int?
    /// The source name given to `eqs(_:source:)`, if any.
    public internal(set) var source: String?
    /// The text of the line the constraint came from, as written.
    public var sourceText: String? { sourceLine?.string }
    var sourceLine: LineText?
    /// False once the constraint was removed; a removed constraint's methods throw `.stale`.
    public internal(set) var isValid = true
    /// For a constraint an arrangement owns: how many of the arrangement's rule sections hold it now (see
    /// `RuleSection`); it goes when none does.
    var arrangementUses: Int32 = 0

    var layout: Layout? { link.layout }
    let link: LayoutLink
    /// How much a violation counts against other constraints of the same priority (1 unless a generator says
    /// otherwise, as a stack's tie-break does).
    var weight: Double = 1
    /// The solver's handle while the constraint is in the solver (active).
    var solverConstraint: Constraint?
    /// The expression the solver holds for it (as given to the solver: terms merged, none zero), to tell a
    /// constant change from a rebuild; nil when not in the solver. Read from the solver, not kept twice.
    var installedExpression: Expression? {
        guard let h = solverConstraint, let layout else { return nil }
        return try? layout.solver.expression(of: h)
    }

    init(id: Int, layout: Layout, first: View, firstAttribute: LayoutAttribute, relation: LayoutRelation,
         second: View?, secondAttribute: LayoutAttribute?, multiplier: Double, divisor: Double?, constant: Double,
         priority: Double, origin: ConstraintOrigin) {
        self.id = id
        link = layout.link
        self.firstView = first
        self.firstAttribute = firstAttribute
        self.relation = relation
        self.secondView = second
        self.secondAttribute = secondAttribute
        self.multiplier = multiplier
        self.divisor = divisor
        self.constant = constant
        self.priority = priority
        self.origin = origin
    }

    /// Constraints are equal when they are the same object.
    public static func == (a: LayoutConstraint, b: LayoutConstraint) -> Bool { a === b }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Whether the constraint takes part in solving. Change with `setActive(_:)`. Intrinsic-size constraints
    /// are active exactly when the view has an intrinsic size on their axis.
    public var isActive: Bool { solverConstraint != nil }

    /// True when the priority is 1000.
    public var isRequired: Bool { priority >= LayoutPriority.required }

    /// True when the constraint uses `leading`/`trailing` attributes, so a right-to-left first view mirrors it.
    public var isDirectional: Bool {
        firstAttribute.isDirectional || (secondAttribute?.isDirectional ?? false)
    }

    /// The equation that would create this constraint, e.g. `table.top == calendar.bottom + 8 @ 750`: the
    /// superview is named explicitly, a multiplier of 1, a constant of 0 (with a second view) and priority 1000
    /// are left out.
    public var description: String {
        var s = "\(firstView.name).\(firstAttribute.rawValue) \(relation.rawValue) "
        if let secondView, let secondAttribute {
            s += "\(secondView.name).\(secondAttribute.rawValue)"
            if let divisor {
                s += " / " + formatNumber(divisor)
            } else if multiplier != 1 {
                s += " * " + formatNumber(multiplier)
            }
            if constant > 0 {
                s += " + " + formatNumber(constant)
            } else if constant < 0 {
                s += " - " + formatNumber(-constant)
            }
        } else {
            s += formatNumber(constant)
        }
        if priority != LayoutPriority.required { s += " @ " + formatNumber(priority) }
        return s
    }

    /// The equation with its origin, as errors and reports print it:
    /// `` `a.left == root.left + 8` (line 3) ``.
    public var located: String { info.description }

    /// A value snapshot of the constraint for errors and reports.
    public var info: ConstraintInfo {
        ConstraintInfo(id: id, equation: description, line: line, source: source, note: note)
    }

    /// Words for constraints the layout made itself, e.g. `compression resistance of label's intrinsic width`.
    var note: String? {
        switch origin {
        case .equation: return nil
        case .intrinsic(let axis, let role):
            return "\(role) of \(firstView.name)'s intrinsic \(axis == .horizontal ? "width" : "height")"
        case .rootSize: return "root size"
        case .guide: return "\(firstView.name) guide"
        case .arrangement(let owner, let rule): return "\(owner): \(rule)"
        }
    }

    func checkUsable() throws(LayoutError) -> Layout {
        guard isValid, let layout else {
            throw LayoutError(.stale, "constraint `\(description)` was removed from its layout")
        }
        return layout
    }

    /// Changes the constant in place (one incremental re-solve). For an intrinsic-size constraint this sets the
    /// view's intrinsic size on that axis.
    /// - Throws: `.invalid` for a non-finite value or a root/guide constraint (use `Layout.setRootSize`,
    ///   `setSafeAreaInsets`, `setKeyboardHeight`), `.unsatisfiable` (nothing changes), `.stale`.
    public func setConstant(_ value: Double) throws(LayoutError) {
        try checkUsable()._setConstantByHandle(self, value)
    }

    /// Changes the priority (1...1000), also to or from required. For an intrinsic-size constraint this sets
    /// the view's hugging or compression resistance on that axis.
    /// - Throws: `.invalid`, `.unsatisfiable` (nothing changes), `.stale`.
    public func setPriority(_ value: Double) throws(LayoutError) {
        try checkUsable()._setPriorityByHandle(self, value)
    }

    /// Adds the constraint to solving (`true`) or takes it out while keeping the handle (`false`).
    /// - Throws: `.unsatisfiable` when activating a required constraint that cannot hold; `.invalid` for
    ///   intrinsic, root and guide constraints (they follow their view's properties); `.stale`.
    public func setActive(_ active: Bool) throws(LayoutError) {
        try checkUsable()._setActiveByHandle(self, active)
    }
}
