import MoaSolver
import XCTest

/// The same constraints added in any order give the same solution (the optimum is unique), and the solver's
/// state stays consistent whatever the order: definitions form, change hands and re-form.
final class OrderTests: XCTestCase {
    /// A constraint as data, to add it to several solvers in several orders.
    struct Spec {
        var terms: [(Int, Double)]
        var constant: Double
        var relation: Relation
        var priority: Double
    }

    /// A row of `n` views in a container (chain: left_i == right_{i-1} + gap; tops chained; min, preferred and
    /// local max widths; a trailing space) and a 5x5 grid beside it (equal widths per column, heights per row,
    /// preferred sizes whose medians give a unique optimum). Variables: 4 per view plus the containers.
    func layout(views n: Int) -> (Int, [Spec]) {
        var specs: [Spec] = []
        var nv = 0
        func v() -> Int { nv += 1; return nv - 1 }
        func add(_ t: [(Int, Double)], _ k: Double, _ r: Relation = .equal, _ p: Double = Priority.required) {
            specs.append(Spec(terms: t, constant: k, relation: r, priority: p))
        }
        let cl = v(), cr = v(), ct = v(), cb = v()
        add([(cl, 1)], 0); add([(ct, 1)], 0); add([(cb, 1)], -200)
        var total = 16.0
        var prev: (Int, Int, Int)? = nil
        for i in 0..<n {
            let left = v(), width = v(), top = v(), height = v()
            let pref = Double(40 + (i * 37) % 81), gap = [4.0, 8, 12][i % 3]
            if let (pl, pw, pt) = prev {
                add([(left, 1), (pl, -1), (pw, -1)], -gap)
                add([(top, 1), (pt, -1)], 0)
            } else {
                add([(left, 1), (cl, -1)], -8)
                add([(top, 1), (ct, -1)], -8)
            }
            add([(width, 1)], -10, .greaterOrEqual)
            add([(width, 1)], -pref, .equal, Priority.low)
            if i % 5 == 2 { add([(width, 1)], -(pref - 6), .lessOrEqual, 300) }
            add([(height, 1)], -10, .greaterOrEqual)
            add([(height, 1)], -Double(20 + (i % 3) * 4), .equal, Priority.low)
            add([(top, 1), (height, 1), (cb, -1)], 8, .lessOrEqual)
            total += (i % 5 == 2 ? pref - 6 : pref) + gap
            prev = (left, width, top)
        }
        add([(cr, 1)], -(total + 100))
        add([(cr, 1), (prev!.0, -1), (prev!.1, -1)], -8, .greaterOrEqual)
        add([(cr, 1), (prev!.0, -1), (prev!.1, -1)], -8, .equal, 200)
        // The grid: cells (r, c) with left/top chained, equal widths per column and heights per row.
        let gl = v(), gt = v()
        add([(gl, 1)], -Double(total + 200)); add([(gt, 1)], 0)
        var cells: [[(Int, Int, Int, Int)]] = []
        for r in 0..<5 {
            var row: [(Int, Int, Int, Int)] = []
            for c in 0..<5 {
                let cell = (v(), v(), v(), v())   // left, top, width, height
                if c == 0 { add([(cell.0, 1), (gl, -1)], -8) } else {
                    let p = row[c - 1]; add([(cell.0, 1), (p.0, -1), (p.2, -1)], -4)
                }
                if r == 0 { add([(cell.1, 1), (gt, -1)], -8) } else {
                    let p = cells[r - 1][c]; add([(cell.1, 1), (p.1, -1), (p.3, -1)], -4)
                }
                if r > 0 { add([(cell.2, 1), (cells[0][c].2, -1)], 0) }
                if c > 0 { add([(cell.3, 1), (row[0].3, -1)], 0) }
                add([(cell.2, 1)], -20, .greaterOrEqual)
                add([(cell.2, 1)], -Double(30 + (r * 7 + c * 13) % 90), .equal, Priority.low)
                add([(cell.3, 1)], -Double(16 + (r * 11 + c * 5) % 40), .equal, Priority.low)
                row.append(cell)
            }
            cells.append(row)
        }
        return (nv, specs)
    }

    func solve(_ nv: Int, _ specs: [Spec], order: [Int], check: Bool = false) throws -> [Double] {
        let s = Solver()
        let vs = (0..<nv).map { s.addVariable(name: "v\($0)") }
        for (k, i) in order.enumerated() {
            let sp = specs[i]
            try s.add(Expression(sp.terms.map { Term(vs[$0.0], $0.1) }, constant: sp.constant), sp.relation,
                      priority: sp.priority)
            if check && k % 37 == 0, let problem = s._deepConsistencyProblem() {
                XCTFail("after \(k + 1) adds: \(problem)")
                return []
            }
        }
        s.updateVariables()
        if let problem = s._consistencyProblem() { XCTFail(problem) }
        return try vs.map { try s.value(of: $0) }
    }

    func testShuffledBuildsGiveTheSameSolution() throws {
        let (nv, specs) = layout(views: 60)
        let reference = try solve(nv, specs, order: Array(specs.indices))
        var rng = SplitMix(state: 11)
        for round in 0..<6 {
            var order = Array(specs.indices)
            for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, rng.int(i + 1)) }
            if round == 1 { order.reverse() }
            let values = try solve(nv, specs, order: order, check: round < 2)
            XCTAssertEqual(values.count, reference.count)
            for i in reference.indices where i < values.count {
                XCTAssertEqual(values[i], reference[i], accuracy: 1e-6, "round \(round), variable \(i)")
            }
        }
    }

    /// The variables of the same layout numbered in another order (made in a random order; the constraints in
    /// the same order): the same solution, and a tableau within 3x of the one with the variables made in layout
    /// order (7,603 cells; these three orders 17,923, 7,615 and 7,610; 90,586-96,528 before).
    /// A link `left_i == left_{i-1} + width_{i-1} + gap` whose new left could not be placed just above the
    /// highest-ranked of its variables (that one was placed itself, or its three places were taken) went in as
    /// an ordinary row holding the chain so far.
    func testVariablesNumberedInAnyOrderGiveTheSameTableauSize() throws {
        let (nv, specs) = layout(views: 300)
        func build(_ number: [Int]) throws -> (values: [Double], cells: Int) {
            let s = Solver()
            var made = [Variable?](repeating: nil, count: nv)
            for i in number.indices.sorted(by: { number[$0] < number[$1] }) { made[i] = s.addVariable(name: "v\(i)") }
            let vs = made.map { $0! }
            for sp in specs {
                try s.add(Expression(sp.terms.map { Term(vs[$0.0], $0.1) }, constant: sp.constant), sp.relation,
                          priority: sp.priority)
            }
            s.updateVariables()
            if let problem = s._consistencyProblem() { XCTFail(problem) }
            return (try vs.map { try s.value(of: $0) }, s.usage.cells)
        }
        let reference = try build(Array(0..<nv))
        var rng = SplitMix(state: 23)
        for round in 0..<3 {
            var number = Array(0..<nv)
            for i in stride(from: number.count - 1, to: 0, by: -1) { number.swapAt(i, rng.int(i + 1)) }
            let got = try build(number)
            XCTAssertLessThan(got.cells, 3 * reference.cells + 100, "round \(round): \(got.cells) cells, "
                              + "\(reference.cells) in layout order")
            for i in reference.values.indices {
                XCTAssertEqual(got.values[i], reference.values[i], accuracy: 1e-6, "round \(round), variable \(i)")
            }
        }
    }

    /// How `buildLayout` adds a layout's constraints.
    enum Adding { case oneByOne, rankedFirst, oneCall }

    /// Builds the layout `specs` over `nv` variables, made in the order `number` gives them (variable `i` is made
    /// `number[i]`-th) and its constraints added in the order `order` lists them, one add at a time, ranked first
    /// (`rankFreshVariables`) then one at a time, or in one `add(_: [ConstraintSpec])`. Checks the tableau's
    /// consistency; returns the values and the cells.
    func buildLayout(_ nv: Int, _ specs: [Spec], number: [Int], order: [Int], adding: Adding) throws
        -> (values: [Double], cells: Int) {
        let s = Solver()
        var made = [Variable?](repeating: nil, count: nv)
        for i in number.indices.sorted(by: { number[$0] < number[$1] }) { made[i] = s.addVariable(name: "v\(i)") }
        let vs = made.map { $0! }
        let items = order.map { k in
            ConstraintSpec(Expression(specs[k].terms.map { Term(vs[$0.0], $0.1) }, constant: specs[k].constant),
                           specs[k].relation, priority: specs[k].priority)
        }
        switch adding {
        case .oneCall:
            let handles = try s.add(items)
            XCTAssertEqual(Set(handles).count, items.count)
        case .rankedFirst, .oneByOne:
            if adding == .rankedFirst {
                XCTAssertFalse(s.rankFreshVariables(for: items.map { ($0.expression, $0.relation, $0.priority) })
                    .isEmpty)
            }
            for b in items { try s.add(b.expression, b.relation, priority: b.priority) }
        }
        s.updateVariables()
        if let problem = s._consistencyProblem() { XCTFail(problem) }
        return (try vs.map { try s.value(of: $0) }, s.usage.cells)
    }

    /// Variables made in a random order and the constraints added in another (a program that iterates a hash
    /// table for both): with the batch ranked first (`rankFreshVariables`) the tableau is the layout order's
    /// within a few percent, and the solution the same. Without it a link that joins two pieces of a chain holds
    /// the chain so far (12x the cells at 300 views, 59x for a chain of 10,000 views).
    func testABatchRankedFirstBuildsTheSameTableauInAnyOrder() throws {
        let (nv, specs) = layout(views: 300)
        func build(number: [Int], order: [Int], rank: Bool) throws -> (values: [Double], cells: Int) {
            try buildLayout(nv, specs, number: number, order: order, adding: rank ? .rankedFirst : .oneByOne)
        }
        let reference = try build(number: Array(0..<nv), order: Array(specs.indices), rank: false)
        let inOrderRanked = try build(number: Array(0..<nv), order: Array(specs.indices), rank: true)
        XCTAssertLessThanOrEqual(inOrderRanked.cells, reference.cells + reference.cells / 20)
        var rng = SplitMix(state: 41)
        for round in 0..<3 {
            var number = Array(0..<nv), order = Array(specs.indices)
            for i in stride(from: number.count - 1, to: 0, by: -1) { number.swapAt(i, rng.int(i + 1)) }
            for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, rng.int(i + 1)) }
            let got = try build(number: number, order: order, rank: true)
            XCTAssertLessThanOrEqual(got.cells, reference.cells + reference.cells / 5,
                                     "round \(round): \(got.cells) cells, \(reference.cells) in layout order")
            for i in reference.values.indices {
                XCTAssertEqual(got.values[i], reference.values[i], accuracy: 1e-6, "round \(round), variable \(i)")
            }
        }
    }

    /// `rankFreshVariables` moves only the ranks of the batch's variables that nothing holds (not one a
    /// constraint holds, nor one placed), and `restoreRanks` gives them back while nothing holds them; once a
    /// constraint holds one of them it changes nothing.
    func testRanksOfABatchMoveAmongItsFreeVariablesAndComeBack() throws {
        let s = Solver()
        let held = s.addVariable(name: "held")
        try s.add(Expression([Term(held, 1)], constant: -5), .equal)
        let vs = (0..<6).map { s.addVariable(name: "v\($0)") }
        let placed = s.addVariable(name: "placed")
        XCTAssertTrue(try s.placeRank(of: placed, justAbove: held))
        // A chain written against the numbering: v5 == held + 1, v4 == v5 + 1, ..., v0 == v1 + 1; placed >= v0.
        var batch: [(expression: MoaSolver.Expression, relation: Relation, priority: Double)] = []
        var prev = held
        for v in vs.reversed() {
            batch.append((Expression([Term(v, 1), Term(prev, -1)], constant: -1), Relation.equal, Priority.required))
            prev = v
        }
        batch.append((Expression([Term(placed, 1), Term(vs[0], -1)], constant: 0), Relation.greaterOrEqual,
                      Priority.required))
        let all = [held] + vs + [placed]
        func order() throws -> [[Bool]] { try all.map { a in try all.map { b in try s.ranks(a, above: b) } } }
        let before = try order()
        let snapshot = s.rankFreshVariables(for: batch)
        XCTAssertFalse(snapshot.isEmpty)
        for k in 1..<vs.count { XCTAssertTrue(try s.ranks(vs[k - 1], above: vs[k]), "v\(k - 1) above v\(k)") }
        for v in vs { XCTAssertTrue(try s.ranks(v, above: held)) }
        let after = try order()
        XCTAssertEqual(after[0], before[0], "the held variable's rank did not move")
        XCTAssertEqual(after.last!, before.last!, "nor the placed one's")
        s.restoreRanks(snapshot)
        XCTAssertEqual(try order(), before)
        // Ranked again and added: a restore then changes nothing (constraints hold them).
        let again = s.rankFreshVariables(for: batch)
        for b in batch { try s.add(b.expression, b.relation, priority: b.priority) }
        let added = try order()
        s.restoreRanks(again)
        XCTAssertEqual(try order(), added)
        s.updateVariables()
        XCTAssertEqual(try s.value(of: vs[0]), 11, accuracy: 1e-9)
        if let problem = s._consistencyProblem() { XCTFail(problem) }
    }

    /// A document of paragraphs in a pane (`left == pane.left + 16`, `top == previous.bottom + 12`,
    /// `height >= 20`, a strong reflow rule), its variables made in an order that puts every paragraph's left
    /// below the pane's left and each height above its top, builds the same tableau as in layout order. Two
    /// causes went in as ordinary rows holding the column so far (20.3M cells against 54k): a link whose
    /// highest-ranked variable was a height held by its bound took the height over, putting the bound back as an
    /// ordinary row, instead of defining its new top; and with 4,500 lefts placed above the pane's, the places of
    /// the 64 ids searched ran out.
    func testAColumnNumberedAgainstItsLayoutBuildsTheSameTableau() throws {
        let paragraphs = 4_500
        func build(lateOrder: Bool) throws -> (values: [Double], cells: Int, definitions: Int) {
            let s = Solver()
            var left: [Variable] = [], top: [Variable] = [], width: [Variable] = [], height: [Variable] = []
            let x, pane, paneWidth: Variable
            if lateOrder {
                left = (0..<paragraphs).map { s.addVariable(name: "left\($0)") }
                pane = s.addVariable(name: "pane"); x = s.addVariable(name: "x"); paneWidth = s.addVariable(name: "pw")
                top = (0..<paragraphs).map { s.addVariable(name: "top\($0)") }
                width = (0..<paragraphs).map { s.addVariable(name: "width\($0)") }
                height = (0..<paragraphs).map { s.addVariable(name: "height\($0)") }
            } else {
                x = s.addVariable(name: "x"); pane = s.addVariable(name: "pane"); paneWidth = s.addVariable(name: "pw")
                for j in 0..<paragraphs {
                    left.append(s.addVariable(name: "left\(j)")); width.append(s.addVariable(name: "width\(j)"))
                    top.append(s.addVariable(name: "top\(j)")); height.append(s.addVariable(name: "height\(j)"))
                }
            }
            try s.add(Expression([Term(x, 1)], constant: -300), .equal)
            try s.add(Expression([Term(pane, 1), Term(x, -1)], constant: -1), .equal)
            try s.add(Expression([Term(pane, 1), Term(paneWidth, 1)], constant: -1400), .equal)
            for j in 0..<paragraphs {
                try s.add(Expression([Term(left[j], 1), Term(pane, -1)], constant: -16), .equal)
                try s.add(Expression([Term(width[j], 1), Term(paneWidth, -1)], constant: 32), .equal)
                try s.add(j == 0 ? Expression([Term(top[j], 1)], constant: 0)
                                 : Expression([Term(top[j], 1), Term(top[j - 1], -1), Term(height[j - 1], -1)],
                                              constant: -12), .equal)
                try s.add(Expression([Term(height[j], 1)], constant: -20), .greaterOrEqual)
                try s.add(Expression([Term(height[j], 1), Term(width[j], 0.25)], constant: -100), .equal,
                          priority: Priority.high)
            }
            s.updateVariables()
            if let problem = s._consistencyProblem() { XCTFail(problem) }
            let all = [x, pane, paneWidth] + left + width + top + height
            return (try all.map { try s.value(of: $0) }, s.usage.cells, s._statistics.passive.rows)
        }
        let reference = try build(lateOrder: false)
        let late = try build(lateOrder: true)
        XCTAssertLessThanOrEqual(late.cells, reference.cells + reference.cells / 50,
                                 "\(late.cells) cells, \(reference.cells) in layout order")
        XCTAssertEqual(late.definitions, reference.definitions, "every left a definition, placed above the pane's")
        for i in reference.values.indices {
            XCTAssertEqual(late.values[i], reference.values[i], accuracy: 1e-6, "variable \(i)")
        }
        XCTAssertEqual(late.values.last!, 20, accuracy: 1e-9)   // the reflow rule yields to the bound
    }

    /// Variables made in a random order and constraints added (some rounds ranked as a batch first:
    /// `rankFreshVariables`), removed, re-added and contradicted in random orders: the rank order's bookkeeping
    /// (places, the count of places taken below each symbol, the hops over full ones, passive rows ranked above
    /// what they hold) stays whole after every call, failed calls included (`_consistencyProblem` checks it),
    /// and the solution is the same system's.
    func testRandomNumberingAndOrderKeepTheRankOrderWhole() throws {
        let (nv, specs) = layout(views: 60)
        let reference = try solve(nv, specs, order: Array(specs.indices))
        var rng = SplitMix(state: 41)
        for round in 0..<3 {
            let s = Solver()
            var number = Array(0..<nv)
            for i in stride(from: number.count - 1, to: 0, by: -1) { number.swapAt(i, rng.int(i + 1)) }
            var made = [Variable?](repeating: nil, count: nv)
            for i in number.indices.sorted(by: { number[$0] < number[$1] }) { made[i] = s.addVariable(name: "v\(i)") }
            let vs = made.map { $0! }
            func expression(_ sp: Spec, shift: Double = 0) -> MoaSolver.Expression {
                Expression(sp.terms.map { Term(vs[$0.0], $0.1) }, constant: sp.constant + shift)
            }
            var handles = [Constraint?](repeating: nil, count: specs.count)
            func check(_ step: String) {
                if let problem = s._consistencyProblem() { XCTFail("round \(round), \(step): \(problem)") }
            }
            func batch(_ list: [Int]) -> [(expression: MoaSolver.Expression, relation: Relation, priority: Double)] {
                list.map { (expression(specs[$0]), specs[$0].relation, specs[$0].priority) }
            }
            var order = Array(specs.indices)
            for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, rng.int(i + 1)) }
            // Rounds 0 and 2 rank the build as one batch (and later the re-adds that free variables again).
            let ranking = round != 1
            if ranking { s.rankFreshVariables(for: batch(order)); check("ranked") }
            for (k, i) in order.enumerated() {
                handles[i] = try s.add(expression(specs[i]), specs[i].relation, priority: specs[i].priority)
                if k % 7 == 0 { check("add \(k)") }
            }
            for cycle in 0..<6 {
                var out: [Int] = []
                for i in specs.indices where rng.chance(0.25) { try s.remove(handles[i]!); handles[i] = nil; out.append(i) }
                check("cycle \(cycle), removals")
                for i in stride(from: out.count - 1, to: 0, by: -1) { out.swapAt(i, rng.int(i + 1)) }
                let snapshot = ranking ? s.rankFreshVariables(for: batch(out)) : RankSnapshot()
                check("cycle \(cycle), ranked")
                defer { s.restoreRanks(snapshot); check("cycle \(cycle), restored (all held: no change)") }
                for i in out {
                    handles[i] = try s.add(expression(specs[i]), specs[i].relation, priority: specs[i].priority)
                    // A required equality contradicting one that holds now fails and changes nothing.
                    let j = rng.int(specs.count)
                    if handles[j] != nil, specs[j].relation == .equal, specs[j].priority == Priority.required {
                        XCTAssertThrowsError(try s.add(expression(specs[j], shift: 7), .equal))
                    }
                }
                check("cycle \(cycle), re-adds")
            }
            s.updateVariables()
            for i in reference.indices {
                XCTAssertEqual(try s.value(of: vs[i]), reference[i], accuracy: 1e-6, "round \(round), variable \(i)")
            }
        }
    }

    /// Removing and re-adding constraints in shuffled orders keeps the solution of the same set.
    func testShuffledRemovalsAndReAddsGiveTheSameSolution() throws {
        let (nv, specs) = layout(views: 30)
        let reference = try solve(nv, specs, order: Array(specs.indices))
        let s = Solver()
        let vs = (0..<nv).map { s.addVariable(name: "v\($0)") }
        var handles: [Constraint?] = Array(repeating: nil, count: specs.count)
        var rng = SplitMix(state: 5)
        func add(_ i: Int) throws {
            let sp = specs[i]
            handles[i] = try s.add(Expression(sp.terms.map { Term(vs[$0.0], $0.1) }, constant: sp.constant),
                                   sp.relation, priority: sp.priority)
        }
        var order = Array(specs.indices)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, rng.int(i + 1)) }
        for i in order { try add(i) }
        for round in 0..<4 {
            var out: [Int] = []
            for i in specs.indices where rng.chance(0.3) { try s.remove(handles[i]!); handles[i] = nil; out.append(i) }
            s.updateVariables()
            for i in out.reversed() { try add(i) }
            s.updateVariables()
            if let problem = s._deepConsistencyProblem() { return XCTFail("round \(round): \(problem)") }
            let values = try vs.map { try s.value(of: $0) }
            for i in reference.indices {
                XCTAssertEqual(values[i], reference[i], accuracy: 1e-6, "round \(round), variable \(i)")
            }
        }
    }

    /// Two required equalities with the same highest-ranked variable, in either order, leave the same tableau
    /// size: a row closed at both ends and appended to one view at a time (each new view's
    /// `right == container.right` first, then its `left == previous.right`, then the previous closure removed,
    /// as a stack does) ends like the row built link first. It used to keep the closure as each view's
    /// definition and hold every later position in a long row: 120 views, 30k cells instead of ~1k.
    func testEqualDefinitionsDoNotDependOnOrder() throws {
        func build(closureFirst: Bool) throws -> (SolverUsage, [Double]) {
            let s = Solver()
            let cl = s.addVariable(name: "cl"), cw = s.addVariable(name: "cw")
            try s.add(Expression([Term(cl, 1)], constant: 0), .equal)
            try s.add(Expression([Term(cw, 1)], constant: -1000), .equal)
            var views: [(x: Variable, w: Variable)] = []
            var closure: Constraint?
            for i in 0 ..< 120 {
                let w = s.addVariable(name: "w\(i)"), x = s.addVariable(name: "x\(i)")
                try s.add(Expression([Term(w, 1)], constant: -2), .equal, priority: Priority.medium)
                try s.add(Expression([Term(w, 1)], constant: 0), .equal, priority: Double(1 + i) / 1000)
                let close = Expression([Term(x, 1), Term(w, 1), Term(cl, -1), Term(cw, -1)], constant: 0)
                let link = views.last.map { Expression([Term(x, 1), Term($0.x, -1), Term($0.w, -1)], constant: 0) }
                    ?? Expression([Term(x, 1), Term(cl, -1)], constant: 0)
                let old = closure
                if closureFirst {
                    closure = try s.add(close, .equal)
                    try s.add(link, .equal)
                } else {
                    try s.add(link, .equal)
                    closure = try s.add(close, .equal)
                }
                if let old { try s.remove(old) }
                views.append((x, w))
            }
            s.updateVariables()
            if let problem = s._consistencyProblem() { XCTFail(problem) }
            return (s.usage, try views.map { try s.value(of: $0.x) })
        }
        let (a, xa) = try build(closureFirst: true), (b, xb) = try build(closureFirst: false)
        XCTAssertEqual(xa, xb)
        XCTAssertEqual(xa.last!, 998, accuracy: 1e-9)
        XCTAssertLessThan(a.cells, 2 * b.cells + 100, "closure first: \(a.cells) cells, link first: \(b.cells)")
    }

    /// Variables made after the ones they sit between (a layout's spacers between existing views), placed in the
    /// rank order just above the view before them, make the chain a chain of definitions: the same solution,
    /// a consistent tableau, and a number of cells in proportion to the chain. Unplaced, the solver places them
    /// itself: each trailing equality meets the next view's position defined and holds the spacer's width,
    /// which nothing holds yet, so it defines that width just above the position (`defineFreeVariable`; before
    /// it, ~n^2 / 2 cells: 5,656 at 100 views).
    func testPlacedRanksDefineAlongTheChain() throws {
        func build(_ n: Int, place: Bool) throws -> (SolverUsage, [Double]) {
            let s = Solver()
            let pl = s.addVariable(name: "pl"), pw = s.addVariable(name: "pw")
            try s.add(Expression([Term(pl, 1)], constant: 0), .equal)
            try s.add(Expression([Term(pw, 1)], constant: -1000), .equal)
            var views: [(x: Variable, w: Variable)] = []
            for i in 0 ..< n {
                let w = s.addVariable(name: "w\(i)"), x = s.addVariable(name: "x\(i)")
                try s.add(Expression([Term(w, 1)], constant: -Double(2 + i % 5)), .equal, priority: Priority.medium)
                views.append((x, w))
            }
            // Spacers made after every view: gap k from view k - 1 (the parent for k = 0) to view k, and a last
            // one to the parent's trailing edge; all equal and at least 0.
            var gaps: [(x: Variable, w: Variable)] = []
            for k in 0 ... n {
                let gw = s.addVariable(name: "gw\(k)"), gx = s.addVariable(name: "gx\(k)")
                if place {
                    let anchor = k == 0 ? pl : views[k - 1].x
                    XCTAssertTrue(try s.placeRank(of: gw, justAbove: anchor))
                    XCTAssertTrue(try s.placeRank(of: gx, justAbove: anchor))
                }
                if let first = gaps.first { try s.add(Expression([Term(gw, 1), Term(first.w, -1)], constant: 0), .equal) }
                let (ax, aw) = k == 0 ? (pl, nil) : (views[k - 1].x, views[k - 1].w)
                var lead = [Term(gx, 1), Term(ax, -1)]
                if let aw { lead.append(Term(aw, -1)) }
                try s.add(Expression(lead, constant: 0), .equal)
                let trail = k < n ? [Term(gx, 1), Term(gw, 1), Term(views[k].x, -1)]
                                  : [Term(gx, 1), Term(gw, 1), Term(pl, -1), Term(pw, -1)]
                try s.add(Expression(trail, constant: 0), .equal)
                gaps.append((gx, gw))
            }
            try s.add(Expression([Term(gaps[0].w, 1)], constant: 0), .greaterOrEqual)
            s.updateVariables()
            if let problem = s._deepConsistencyProblem() { XCTFail(problem) }
            return (s.usage, try (views.map(\.x) + gaps.map(\.x)).map { try s.value(of: $0) })
        }
        let n = 100
        let (placed, xp) = try build(n, place: true), (plain, xq) = try build(n, place: false)
        XCTAssertEqual(xp.count, xq.count)
        for i in xp.indices { XCTAssertEqual(xp[i], xq[i], accuracy: 1e-7, "value \(i)") }
        XCTAssertLessThan(placed.cells, 40 * n, "placed: \(placed.cells) cells")
        XCTAssertLessThan(plain.cells, 40 * n, "unplaced: \(plain.cells) cells")

        // Evaluated in rank order, not by id: c, made after b but placed above a, defines itself from a, and b
        // from c; a suggestion on a must reach b through c (by id, b came first and read an old c).
        do {
            let s = Solver()
            let a = s.addVariable(name: "a"), b = s.addVariable(name: "b"), c = s.addVariable(name: "c")
            XCTAssertTrue(try s.placeRank(of: c, justAbove: a))
            try s.add(Expression([Term(c, 1), Term(a, -1)], constant: -1), .equal)
            try s.add(Expression([Term(b, 1), Term(c, -1)], constant: -1), .equal)
            try s.addEditVariable(a, priority: Priority.high)
            for value in [3.0, -7, 11, 0.5] {
                try s.suggestValue(value, for: a)
                s.updateVariables()
                XCTAssertEqual(try s.value(of: b), value + 2, "after suggesting \(value)")
                XCTAssertEqual(try s.value(of: c), value + 1)
            }
            XCTAssertNil(s._deepConsistencyProblem())
        }

        // A variable a constraint holds cannot be placed; 63 can be placed above one variable, not 64.
        let s = Solver()
        let a = s.addVariable(), b = s.addVariable()
        let more = (0 ..< 64).map { _ in s.addVariable() }
        try s.add(Expression([Term(b, 1)], constant: -1), .equal)
        XCTAssertFalse(try s.placeRank(of: b, justAbove: a))
        XCTAssertEqual(try more.map { try s.placeRank(of: $0, justAbove: a) }, Array(repeating: true, count: 63) + [false])

        // Just below: u, made last, placed below w, ranks above v (made before w) and below w; an equality
        // between w and u then defines w (its highest-ranked variable), where unplaced it would have defined u.
        do {
            let s = Solver()
            let v = s.addVariable(), w = s.addVariable(), u = s.addVariable()
            XCTAssertTrue(try s.ranks(u, above: w))
            XCTAssertTrue(try s.placeRank(of: u, justBelow: w))
            XCTAssertFalse(try s.ranks(u, above: w))
            XCTAssertTrue(try s.ranks(w, above: u))
            XCTAssertTrue(try s.ranks(u, above: v))
            try s.add(Expression([Term(w, 1), Term(u, -0.5)]), .equal)
            XCTAssertEqual(s._statistics.passive.rows, 1)
            try s.add(Expression([Term(u, 1)], constant: -8), .equal)
            s.updateVariables()
            XCTAssertEqual(try s.value(of: w), 4)
            XCTAssertNil(s._deepConsistencyProblem())
            XCTAssertThrowsError(try s.ranks(Variable(rawValue: 12345), above: w))
        }
    }

    /// Views nested by both edges, `x_k == x_(k-1) + 8` and `x_k + w_k == x_(k-1) + w_(k-1) - 8` level after
    /// level (each width made before its position, as a layout makes them): the second equality meets `x_k`
    /// defined and holds `w_k`, which nothing holds yet, so it defines `w_k` (placed just above `x_k` in the rank
    /// order) instead of going in as a row that holds a dummy per level above (n^2 / 2 cells). In either order of
    /// the two equalities (the right edge's first: the left edge's then takes `x_k` over and the right edge's
    /// defines `w_k`), with removals latest first, and with a failed add that must change nothing.
    func testEqualitiesDefineTheVariableNothingHoldsYet() throws {
        for rightFirst in [false, true] {
            let s = Solver()
            let w0 = s.addVariable(name: "w0"), x0 = s.addVariable(name: "x0")
            try s.add(Expression([Term(x0, 1)], constant: 0), .equal)
            try s.add(Expression([Term(w0, 1)], constant: -10_000), .equal)
            var levels: [(w: Variable, x: Variable, made: [Constraint])] = [(w0, x0, [])]
            let n = 120
            for k in 1 ... n {
                let (pw, px) = (levels[k - 1].w, levels[k - 1].x)
                let w = s.addVariable(name: "w\(k)"), x = s.addVariable(name: "x\(k)")
                let left = Expression([Term(x, 1), Term(px, -1)], constant: -8)
                let right = Expression([Term(x, 1), Term(w, 1), Term(px, -1), Term(pw, -1)], constant: 8)
                var made: [Constraint] = []
                for e in rightFirst ? [right, left] : [left, right] { made.append(try s.add(e, .equal)) }
                levels.append((w, x, made))
            }
            s.updateVariables()
            let cells = s.usage.cells
            XCTAssertLessThan(cells, 12 * n, "right edge first: \(rightFirst)")
            for k in [1, n / 2, n] {
                XCTAssertEqual(try s.value(of: levels[k].x), Double(8 * k), accuracy: 1e-9)
                XCTAssertEqual(try s.value(of: levels[k].w), 10_000 - Double(16 * k), accuracy: 1e-9)
            }
            XCTAssertNil(s._consistencyProblem())
            // A contradiction changes nothing (the rank places it may have tried included).
            let before = s.dump()
            XCTAssertThrowsError(try s.add(Expression([Term(levels[n].w, 1), Term(levels[n].x, 1)], constant: -1),
                                           .equal))
            XCTAssertEqual(s.dump(), before)
            for level in levels.reversed() { for c in level.made.reversed() { try s.remove(c) } }
            s.updateVariables()
            XCTAssertNil(s._consistencyProblem())
            XCTAssertEqual(try s.value(of: w0), 10_000)
        }
    }

    /// Views appended one at a time across a stack's axis, each preferring a height of 10 (at least @750, at
    /// most @250) and bound to the stack's height, which hugs @49: `y == sy` and `y + h == sy + sh` (a fill
    /// alignment) or `y + h <= sy + sh` (a top alignment). Each new row comes in with the constant 0, and takes as
    /// its basic a symbol in few rows, so no pivot rewrites the earlier views' rows: they each held the symbols
    /// of the view that bound the stack's height, and every append moved that role to itself (n rows a view).
    func testAppendedCrossAxisRowsRewriteNothing() throws {
        for relation in [Relation.equal, .lessOrEqual] {
            let s = Solver()
            let sy = s.addVariable(name: "sy"), sh = s.addVariable(name: "sh")
            try s.add(Expression([Term(sy, 1)], constant: 0), .equal)
            try s.add(Expression([Term(sh, 1)], constant: 0), .equal, priority: 49)
            var heights: [Variable] = []
            var rewritten = 0
            for i in 0 ..< 300 {
                let h = s.addVariable(name: "h\(i)"), y = s.addVariable(name: "y\(i)")
                try s.add(Expression([Term(h, 1)], constant: -10), .greaterOrEqual, priority: 750)
                try s.add(Expression([Term(h, 1)], constant: -10), .lessOrEqual, priority: 250)
                let before = s._rowsRewrittenByKind.reduce(0, +)
                try s.add(Expression([Term(y, 1), Term(sy, -1)], constant: 0), .equal)
                try s.add(Expression([Term(y, 1), Term(h, 1), Term(sy, -1), Term(sh, -1)], constant: 0), relation)
                s.updateVariables()
                if i >= 200 { rewritten += s._rowsRewrittenByKind.reduce(0, +) - before }
                heights.append(h)
            }
            XCTAssertLessThan(rewritten, 5 * 100, "\(relation): rows rewritten by the last 100 appends")
            XCTAssertEqual(try s.value(of: sh), 10, accuracy: 1e-9)
            for h in heights { XCTAssertEqual(try s.value(of: h), 10, accuracy: 1e-9) }
            XCTAssertNil(s._consistencyProblem())
        }
    }

    // MARK: - Solver.add(_: [ConstraintSpec])

    /// One `add` call for the whole batch ranks it first: variables numbered and constraints listed at random
    /// build (about) the tableau of the layout's order, with the same values, where the same adds one at a time
    /// build many times the cells.
    func testABatchCallBuildsTheOrderedTableauInAnyOrder() throws {
        let (nv, specs) = layout(views: 300)
        func build(number: [Int], order: [Int], batch: Bool) throws -> (values: [Double], cells: Int) {
            try buildLayout(nv, specs, number: number, order: order, adding: batch ? .oneCall : .oneByOne)
        }
        let reference = try build(number: Array(0..<nv), order: Array(specs.indices), batch: false)
        var rng = SplitMix(state: 43)
        var number = Array(0..<nv), order = Array(specs.indices)
        for i in stride(from: number.count - 1, to: 0, by: -1) { number.swapAt(i, rng.int(i + 1)) }
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, rng.int(i + 1)) }
        let batch = try build(number: number, order: order, batch: true)
        let oneByOne = try build(number: number, order: order, batch: false)
        XCTAssertLessThanOrEqual(batch.cells, reference.cells + reference.cells / 5)
        XCTAssertGreaterThan(oneByOne.cells, 3 * reference.cells, "the batch call is what makes the difference")
        for i in reference.values.indices {
            XCTAssertEqual(batch.values[i], reference.values[i], accuracy: 1e-6, "variable \(i)")
        }
    }

    /// A batch that fails changes nothing (the dump reads the same): the error names the item, the batch's items
    /// of a conflict and the constraints that were there; the solver keeps its constraints, values and
    /// consistency, and the batch without the failing item goes in.
    func testAFailedBatchAddsNothingAndNamesItsItems() throws {
        let s = Solver()
        let x = s.addVariable(name: "x"), y = s.addVariable(name: "y"), z = s.addVariable(name: "z")
        let free = (0..<6).map { s.addVariable(name: "f\($0)") }
        let ge = try s.add(Expression([Term(x, 1)], constant: -10), .greaterOrEqual)
        try s.add(Expression([Term(free[0], 1)], constant: -3), .equal)
        s.updateVariables()
        let before = (s.usage.constraints, try [x, y, z].map { try s.value(of: $0) })
        let dump = s.dump()
        var items = [
            ConstraintSpec(Expression([Term(free[1], 1), Term(free[0], -1)], constant: -1), .equal),
            ConstraintSpec(Expression([Term(y, 1), Term(x, -1)], constant: 0), .equal),
            ConstraintSpec(Expression([Term(free[2], 1), Term(free[1], -1)], constant: -1), .equal),
            ConstraintSpec(Expression([Term(z, 1), Term(y, -1)], constant: 0), .equal),
            ConstraintSpec(Expression([Term(free[3], 1)], constant: -8), .equal, priority: Priority.low),
            ConstraintSpec(Expression([Term(z, 1)], constant: -5), .lessOrEqual, tag: "z<=5"),
            ConstraintSpec(Expression([Term(free[4], 1), Term(free[2], -1)], constant: -1), .equal),
        ]
        do throws(BatchError) {
            try s.add(items)
            XCTFail("the batch conflicts")
        } catch {
            XCTAssertEqual(error.index, 5)
            XCTAssertEqual(error.error, .unsatisfiable(conflicts: [ge]))
            XCTAssertEqual(error.batchConflicts, [1, 3])
            XCTAssertTrue(error.description.contains("item 5 of the batch"), error.description)
        }
        XCTAssertEqual(s.dump(), dump, "a failed batch puts back exactly what was there")
        s.updateVariables()
        XCTAssertEqual(s.usage.constraints, before.0)
        XCTAssertEqual(try [x, y, z].map { try s.value(of: $0) }, before.1)
        if let problem = s._consistencyProblem() { XCTFail(problem) }

        // A bad number or a stale variable fails where it is, after other items went in.
        items.remove(at: 5)
        var bad = items
        bad[2].expression = Expression([Term(free[2], .nan)], constant: 0)
        XCTAssertThrowsError(try s.add(bad)) { error in
            guard let e = error as? BatchError, case .invalidArgument = e.error else { return XCTFail("\(error)") }
            XCTAssertEqual(e.index, 2)
        }
        bad = items
        bad[5].expression = Expression([Term(Variable(rawValue: 0x7777_0000_0042), 1)], constant: 0)
        XCTAssertThrowsError(try s.add(bad)) { error in
            XCTAssertEqual((error as? BatchError)?.index, 5)
            XCTAssertEqual((error as? BatchError)?.error, .unknownVariable)
        }
        XCTAssertEqual(s.usage.constraints, before.0)

        let made = try s.add(items)
        XCTAssertEqual(made.count, 6)
        XCTAssertEqual(try s.priority(of: made[4]), Priority.low)
        s.updateVariables()
        XCTAssertEqual(try s.value(of: z), 10, accuracy: 1e-9)
        XCTAssertEqual(try s.value(of: free[4]), 6, accuracy: 1e-9)
        if let problem = s._consistencyProblem() { XCTFail(problem) }
    }

    /// A limit reached half way through a batch stops it, and what went in before is taken out again, though
    /// the limit still holds while it is undone.
    func testALimitStopsTheWholeBatch() throws {
        let s = Solver()
        let v = (0..<40).map { s.addVariable(name: "v\($0)") }
        let items = v.indices.map { i in
            ConstraintSpec(Expression(i == 0 ? [Term(v[0], 1)] : [Term(v[i], 1), Term(v[i - 1], -1)],
                                      constant: i == 0 ? 0 : -1),
                           i % 2 == 0 ? .greaterOrEqual : .equal)
        }
        s.limits.maxRows = 10
        XCTAssertThrowsError(try s.add(items)) { error in
            guard let e = error as? BatchError, case .limit = e.error else { return XCTFail("\(error)") }
            XCTAssertGreaterThanOrEqual(e.index, 10)
        }
        XCTAssertEqual(s.usage.constraints, 0)
        XCTAssertEqual(s.usage.rows, 0)
        s.limits.maxRows = SolverLimits.defaultMaxRows
        XCTAssertEqual(try s.add(items).count, 40)
        if let problem = s._consistencyProblem() { XCTFail(problem) }
    }
}
