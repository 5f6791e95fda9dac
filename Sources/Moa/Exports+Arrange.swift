// Moa — C ABI: layout guides, stacks, chains, barriers and the visual format language.
//
// A stack is named by its view's id, a barrier by its guide's id; chains have ids of their own. Enum values are
// the Swift enums' `allCases` order (moa.h lists them in that order).

import MoaLayout

/// The `allCases[raw]` of a C enum value, or MOA_INVALID naming what it should have been.
func caseOf<E: CaseIterable>(_ raw: UInt32, _ what: String) throws -> E where E.AllCases: RandomAccessCollection,
    E.AllCases.Index == Int {
    let all = E.allCases
    guard raw < all.count else { throw BoundaryFailure.invalid("\(raw) is not a \(what) (0...\(all.count - 1))") }
    return all[Int(raw)]
}

/// The views of a C array (`n` ids; NULL with n == 0 is empty).
func viewList(_ box: LayoutBox, _ views: UnsafePointer<UInt64>?, _ n: Int) throws -> [View] {
    guard n >= 0 else { throw BoundaryFailure.invalid("n does not fit in a ptrdiff_t") }
    guard n == 0 || views != nil else { throw BoundaryFailure.misuse("views is NULL but n is \(n)") }
    guard n <= 1 << 24 else { throw BoundaryFailure.invalid("\(n) views are too many") }
    return try (0 ..< n).map { try box.view(views![$0]) }
}

extension LayoutBox {
    func stack(_ id: UInt64) throws -> StackView {
        let v = try view(id)
        guard let s = layout.stack(of: v) else { throw BoundaryFailure.notFound("`\(v.name)` is not a stack") }
        return s
    }

    func barrier(_ id: UInt64) throws -> Barrier {
        let v = try view(id)
        guard let b = layout.barrier(of: v) else { throw BoundaryFailure.notFound("`\(v.name)` is not a barrier") }
        return b
    }

    func chain(_ id: UInt64) throws -> Chain {
        guard let n = number(id, .chain),
              let c = layout.chain(number: n) else { throw BoundaryFailure.notFound("\(id) is not a chain of this layout") }
        return c
    }
}

// MARK: - Guides

@_cdecl("moa_guide_new")
public func moa_guide_new(
    _ L: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ parent: UInt64, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayout(L) { box in
        let name = try requiredString(name, "name")
        let out = try required(out, "out")
        out.pointee = box.id(try box.layout.addGuide(name, in: try box.parent(parent)))
    }
}

// MARK: - Stacks

@_cdecl("moa_stack_new")
public func moa_stack_new(
    _ L: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ parent: UInt64, _ axis: UInt32,
    _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayout(L) { box in
        let name = try requiredString(name, "name")
        let out = try required(out, "out")
        let axis = try layoutAxis(axis)
        out.pointee = box.id(try box.layout.addStack(name, in: try box.parent(parent), axis: axis).view)
    }
}

@_cdecl("moa_stack_insert")
public func moa_stack_insert(_ L: OpaquePointer?, _ stack: UInt64, _ v: UInt64, _ index: Int) -> Int32 {
    withLayout(L) { box in
        let s = try box.stack(stack)
        let view = try box.view(v)
        let count = s.arrangedViews.filter { $0 !== view }.count
        try s.insertArrangedView(view, at: index == -1 ? count : index)
    }
}

@_cdecl("moa_stack_insert_views")
public func moa_stack_insert_views(
    _ L: OpaquePointer?, _ stack: UInt64, _ views: UnsafePointer<UInt64>?, _ n: Int, _ index: Int
) -> Int32 {
    withLayout(L) { box in
        let s = try box.stack(stack)
        let vs = try viewList(box, views, n)
        let listed = Set(vs.map { ObjectIdentifier($0) })
        let count = s.arrangedViews.filter { !listed.contains(ObjectIdentifier($0)) }.count
        try s.insertArrangedViews(vs, at: index == -1 ? count : index)
    }
}

@_cdecl("moa_stack_remove")
public func moa_stack_remove(_ L: OpaquePointer?, _ stack: UInt64, _ v: UInt64) -> Int32 {
    withLayout(L) { box in try box.stack(stack).removeArrangedView(try box.view(v)) }
}

@_cdecl("moa_stack_views")
public func moa_stack_views(
    _ L: OpaquePointer?, _ stack: UInt64, _ out: UnsafeMutablePointer<UInt64>?, _ cap: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayout(L) { box in
        let list = try ListOut(out, cap, count)
        list.write(try box.stack(stack).arrangedViews.map { box.id($0) })
    }
}

@_cdecl("moa_stack_set_axis")
public func moa_stack_set_axis(_ L: OpaquePointer?, _ stack: UInt64, _ axis: UInt32) -> Int32 {
    withLayout(L) { box in try box.stack(stack).setAxis(try layoutAxis(axis)) }
}

@_cdecl("moa_stack_set_distribution")
public func moa_stack_set_distribution(_ L: OpaquePointer?, _ stack: UInt64, _ d: UInt32) -> Int32 {
    withLayout(L) { box in try box.stack(stack).setDistribution(try caseOf(d, "moa_stack_distribution")) }
}

@_cdecl("moa_stack_set_alignment")
public func moa_stack_set_alignment(_ L: OpaquePointer?, _ stack: UInt64, _ a: UInt32) -> Int32 {
    withLayout(L) { box in try box.stack(stack).setAlignment(try caseOf(a, "moa_stack_alignment")) }
}

@_cdecl("moa_stack_set_spacing")
public func moa_stack_set_spacing(_ L: OpaquePointer?, _ stack: UInt64, _ spacing: Double) -> Int32 {
    withLayout(L) { box in try box.stack(stack).setSpacing(spacing) }
}

@_cdecl("moa_stack_set_custom_spacing")
public func moa_stack_set_custom_spacing(_ L: OpaquePointer?, _ stack: UInt64, _ after: UInt64, _ spacing: Double)
    -> Int32
{
    withLayout(L) { box in
        // MOA_SPACING_DEFAULT (FLT_MAX, as UIKit's spacingUseDefault) goes back to the stack's spacing.
        let s: Double? = spacing == Double(Float.greatestFiniteMagnitude) ? nil : spacing
        try box.stack(stack).setCustomSpacing(s, after: try box.view(after))
    }
}

@_cdecl("moa_stack_set_margins_relative")
public func moa_stack_set_margins_relative(_ L: OpaquePointer?, _ stack: UInt64, _ on: Int32) -> Int32 {
    withLayout(L) { box in try box.stack(stack).setLayoutMarginsRelativeArrangement(on != 0) }
}

@_cdecl("moa_stack_get")
public func moa_stack_get(
    _ L: OpaquePointer?, _ stack: UInt64, _ axis: UnsafeMutablePointer<Int32>?,
    _ distribution: UnsafeMutablePointer<Int32>?, _ alignment: UnsafeMutablePointer<Int32>?,
    _ spacing: UnsafeMutablePointer<Double>?, _ marginsRelative: UnsafeMutablePointer<Int32>?
) -> Int32 {
    withLayout(L) { box in
        let s = try box.stack(stack)
        axis?.pointee = Int32(s.axis.rawValue)
        distribution?.pointee = Int32(StackDistribution.allCases.firstIndex(of: s.distribution)!)
        alignment?.pointee = Int32(StackAlignment.allCases.firstIndex(of: s.alignment)!)
        spacing?.pointee = s.spacing
        marginsRelative?.pointee = s.isLayoutMarginsRelativeArrangement ? 1 : 0
    }
}

@_cdecl("moa_stack_set_hidden")
public func moa_stack_set_hidden(
    _ L: OpaquePointer?, _ stack: UInt64, _ v: UInt64, _ hidden: Int32, _ animated: Int32, _ duration: Double,
    _ curve: Int32, _ done: DoneFn?, _ ud: UnsafeMutableRawPointer?, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayout(L) { box in
        let s = try box.stack(stack)
        let view = try box.view(v)
        let curve = try box.curve(curve)
        try checkSeconds(duration, "duration")
        let animation = animated != 0 ? ArrangeAnimation(duration: duration, curve: curve) : nil
        let cell = AnimationCell()
        let a = try s.setHidden(hidden != 0, view, animation: animation, completion: box.doneClosure(done, ud, cell))
        if let a { cell.id = a.id }
        out?.pointee = a.map { box.id($0) } ?? 0
    }
}

@_cdecl("moa_stack_is_hidden")
public func moa_stack_is_hidden(_ L: OpaquePointer?, _ stack: UInt64, _ v: UInt64, _ out: UnsafeMutablePointer<Int32>?)
    -> Int32
{
    withLayout(L) { box in
        let s = try box.stack(stack)
        let view = try box.view(v)
        guard s.arrangedViews.contains(where: { $0 === view }) else {
            throw BoundaryFailure.notFound("`\(view.name)` is not arranged in \(s.title)")
        }
        try output(out) { s.isHidden(view) ? 1 : 0 }
    }
}

// MARK: - Chains

@_cdecl("moa_chain_new")
public func moa_chain_new(
    _ L: OpaquePointer?, _ views: UnsafePointer<UInt64>?, _ n: Int, _ axis: UInt32, _ style: UInt32, _ gap: Double,
    _ bias: Double, _ weights: UnsafePointer<Double>?, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayout(L) { box in
        let out = try required(out, "out")
        let vs = try viewList(box, views, n)
        let axis = try layoutAxis(axis)
        let style: ChainStyle = try caseOf(style, "moa_chain_style")
        // 0 (MOA_NO_WEIGHT) means none.
        let ws: [Double?] = weights.map { w in (0 ..< vs.count).map { w[$0] == 0 ? nil : w[$0] } } ?? []
        let c = try box.layout.addChain(vs, axis: axis, style: style, gap: gap, bias: bias, weights: ws)
        out.pointee = box.id(.chain, c.number)
    }
}

@_cdecl("moa_chain_free")
public func moa_chain_free(_ L: OpaquePointer?, _ chain: UInt64) -> Int32 {
    withLayout(L) { box in try box.chain(chain).remove() }
}

@_cdecl("moa_chain_set_style")
public func moa_chain_set_style(_ L: OpaquePointer?, _ chain: UInt64, _ style: UInt32) -> Int32 {
    withLayout(L) { box in try box.chain(chain).setStyle(try caseOf(style, "moa_chain_style")) }
}

@_cdecl("moa_chain_set_bias")
public func moa_chain_set_bias(_ L: OpaquePointer?, _ chain: UInt64, _ bias: Double) -> Int32 {
    withLayout(L) { box in try box.chain(chain).setBias(bias) }
}

@_cdecl("moa_chain_set_gap")
public func moa_chain_set_gap(_ L: OpaquePointer?, _ chain: UInt64, _ gap: Double) -> Int32 {
    withLayout(L) { box in try box.chain(chain).setGap(gap) }
}

@_cdecl("moa_chain_set_weight")
public func moa_chain_set_weight(_ L: OpaquePointer?, _ chain: UInt64, _ v: UInt64, _ weight: Double) -> Int32 {
    withLayout(L) { box in
        try box.chain(chain).setWeight(weight == 0 ? nil : weight, of: try box.view(v))
    }
}

// MARK: - Barriers

@_cdecl("moa_barrier_new")
public func moa_barrier_new(
    _ L: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ parent: UInt64, _ side: UInt32,
    _ views: UnsafePointer<UInt64>?, _ n: Int, _ margin: Double, _ out: UnsafeMutablePointer<UInt64>?
) -> Int32 {
    withLayout(L) { box in
        let name = try requiredString(name, "name")
        let out = try required(out, "out")
        let side: BarrierSide = try caseOf(side, "moa_barrier_side")
        let vs = try viewList(box, views, n)
        let p: View? = parent == 0 ? nil : try box.view(parent)
        out.pointee = box.id(try box.layout.addBarrier(name, side: side, views: vs, margin: margin, in: p).guide)
    }
}

@_cdecl("moa_barrier_set_views")
public func moa_barrier_set_views(_ L: OpaquePointer?, _ barrier: UInt64, _ views: UnsafePointer<UInt64>?, _ n: Int)
    -> Int32
{
    withLayout(L) { box in
        let b = try box.barrier(barrier)
        try b.setViews(try viewList(box, views, n))
    }
}

@_cdecl("moa_barrier_set_margin")
public func moa_barrier_set_margin(_ L: OpaquePointer?, _ barrier: UInt64, _ margin: Double) -> Int32 {
    withLayout(L) { box in try box.barrier(barrier).setMargin(margin) }
}

// MARK: - Visual format

@_cdecl("moa_layout_vfl_options")
public func moa_layout_vfl_options(_ L: OpaquePointer?, _ words: UnsafePointer<CChar>?,
                                   _ out: UnsafeMutablePointer<UInt32>?) -> Int32 {
    withLayout(L) { box in
        let words = try requiredString(words, "words")
        try output(out) { try VisualFormatOptions(parsing: words).rawValue }
    }
}

@_cdecl("moa_layout_vfl")
public func moa_layout_vfl(
    _ L: OpaquePointer?, _ format: UnsafePointer<CChar>?, _ names: UnsafePointer<UnsafePointer<CChar>?>?,
    _ values: UnsafePointer<Double>?, _ nmetrics: Int, _ options: UInt32, _ out: UnsafeMutablePointer<UInt64>?,
    _ cap: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    withLayout(L) { box in
        let format = try required(format, "format")
        let list = try ListOut(out, cap, count)
        guard nmetrics >= 0, nmetrics <= 1 << 20 else { throw BoundaryFailure.invalid("nmetrics is out of range") }
        guard nmetrics == 0 || (names != nil && values != nil) else {
            throw BoundaryFailure.misuse("names or values is NULL but nmetrics is \(nmetrics)")
        }
        var metrics: [String: Double] = [:]
        for k in 0 ..< nmetrics {
            let name = try requiredString(names![k], "a metric name")
            guard values![k].isFinite else { throw BoundaryFailure.invalid("metric `\(name)` is not finite") }
            metrics[name] = values![k]
        }
        let known = VisualFormatOptions.names.reduce(into: UInt32(0)) { $0 |= $1.1.rawValue }
        guard options & ~known == 0 else {
            throw BoundaryFailure.invalid("options 0x\(String(options, radix: 16)) has bits that are not MOA_VFL_* options")
        }
        let cs = try withCallerOffsets(format) {
            try box.layout.vfl($0, metrics: metrics, options: VisualFormatOptions(rawValue: options))
        }
        list.write(cs.map { box.id($0) })
    }
}
