import MoaSolver
import XCTest

/// Removing a required equality that defines a variable others still use (a link in the middle of a chain:
/// the cell after it is positioned from it) drops the definition and pivots its marker out of the rows that use
/// it (`Tableau.dropUsedDefinition`) unless kiwi's rule picks a restricted row for the marker, in which case the
/// definition is made an ordinary row first. Either way the tableau must agree with the constraints left, and
/// the optimum must be the one a solver built afresh from them finds (compared by the weighted violation at
/// each priority, since a free variable can leave several optima).
private extension Array {
    func pick(_ rng: inout SplitMix) -> Element? { isEmpty ? nil : self[rng.int(count)] }
}

final class DefinitionRemovalTests: XCTestCase {
    struct Link { var i: Int; var gap: Double; var handle: Constraint? }

    func testLinksOutOfTheMiddleOfChains() throws {
        var rng = SplitMix(state: 23)
        var total = (unused: 0, used: 0, activated: 0)
        for round in 0..<8 {
            let s = Solver()
            let n = 12 + rng.int(16)
            // `end` first, so that `end == x[n-1] + 5` cannot define it... it ranks below every x and is basic
            // in an active row that holds the aggregates of the whole chain.
            let end = s.addVariable(name: "end")
            var w: [Variable] = [], x: [Variable] = []
            for i in 0..<n { w.append(s.addVariable(name: "w\(i)")); x.append(s.addVariable(name: "x\(i)")) }
            var soft: [(e: MoaSolver.Expression, r: Relation, p: Double, weight: Double)] = []
            var required: [(MoaSolver.Expression, Relation)] = []
            func addRequired(_ e: MoaSolver.Expression, _ r: Relation) throws {
                _ = try s.add(e, r)
                required.append((e, r))
            }
            func addSoft(_ e: MoaSolver.Expression, _ r: Relation, _ p: Double) throws {
                _ = try s.add(e, r, priority: p)
                soft.append((e, r, p, 1))
            }
            func linkExpression(_ l: Link) -> MoaSolver.Expression {
                l.i == 0 ? Expression([Term(x[0], 1)], constant: -l.gap)
                    : Expression([Term(x[l.i], 1), Term(x[l.i - 1], -1), Term(w[l.i], -1)], constant: -l.gap)
            }
            var links: [Link] = []
            for i in 0..<n {
                var l = Link(i: i, gap: Double(2 + rng.int(4)), handle: nil)
                l.handle = try s.add(linkExpression(l), .equal)
                links.append(l)
                try addRequired(Expression([Term(w[i], 1)], constant: -1), .greaterOrEqual)
                try addSoft(Expression([Term(w[i], 1)], constant: -Double(10 + i % 7)), .equal, 10 + Double(i % 3))
            }
            try addRequired(Expression([Term(end, 1), Term(x[n - 1], -1)], constant: -5), .equal)
            // Some rounds give rows with a restricted basic the chain's aggregates (kiwi's rule then picks them).
            let restricted = round % 4 == 3
            if restricted {
                try addRequired(Expression([Term(end, -1)], constant: 100_000), .greaterOrEqual)
                try addSoft(Expression([Term(x[n / 2], 1)], constant: -150), .equal, 5)
            }
            for step in 0..<40 {
                let live = links.indices.filter { links[$0].handle != nil }
                let gone = links.indices.filter { links[$0].handle == nil }
                switch rng.int(5) {
                case 0, 1:   // one link out of the middle
                    guard let k = live.pick(&rng) else { continue }
                    try s.remove(links[k].handle!)
                    links[k].handle = nil
                case 2:      // two or three at once (one batch)
                    var batch: [Int] = []
                    for _ in 0..<(2 + rng.int(2)) {
                        if let k = live.pick(&rng), !batch.contains(k) { batch.append(k) }
                    }
                    guard !batch.isEmpty else { continue }
                    try s.remove(batch.map { links[$0].handle! })
                    for k in batch { links[k].handle = nil }
                case 3:      // a link back
                    guard let k = gone.pick(&rng) else { continue }
                    links[k].handle = try s.add(linkExpression(links[k]), .equal)
                default:     // a gap changes (the aggregates' rows shift)
                    guard let k = live.pick(&rng) else { continue }
                    links[k].gap = Double(rng.int(9))
                    try s.setConstant(-links[k].gap, of: links[k].handle!)
                }
                s.updateVariables()
                XCTAssertNil(s._deepConsistencyProblem(), "round \(round) step \(step)")
                // The same constraints from scratch: the same violation at every priority.
                let fresh = Solver()
                var map: [Variable: Variable] = [:]
                for v in [end] + w + x { map[v] = fresh.addVariable() }
                func moved(_ e: MoaSolver.Expression) -> MoaSolver.Expression {
                    Expression(e.terms.map { Term(map[$0.variable]!, $0.coefficient) }, constant: e.constant)
                }
                for l in links where l.handle != nil { _ = try fresh.add(moved(linkExpression(l)), .equal) }
                for (e, r) in required { _ = try fresh.add(moved(e), r) }
                for c in soft { _ = try fresh.add(moved(c.e), c.r, priority: c.p) }
                fresh.updateVariables()
                for p in Set(soft.map(\.p)) {
                    func violation(_ value: (Variable) throws -> Double) rethrows -> Double {
                        var sum = 0.0
                        for c in soft where c.p == p {
                            let v = try c.e.terms.reduce(c.e.constant) { $0 + $1.coefficient * (try value($1.variable)) }
                            sum += c.r == .equal ? abs(v) : max(0, c.r == .lessOrEqual ? v : -v)
                        }
                        return sum
                    }
                    let mine = try violation { try s.value(of: $0) }
                    let theirs = try violation { try fresh.value(of: map[$0]!) }
                    XCTAssertEqual(mine, theirs, accuracy: 1e-6, "round \(round) step \(step) priority \(p)")
                }
            }
            let d = s._definitionRemovals
            total = (total.unused + d.unused, total.used + d.used, total.activated + d.activated)
        }
        print("definition removals: \(total)")
        // Both ways ran: dropped while used (most), activated first (rounds with restricted holders).
        XCTAssertGreaterThan(total.used, 30)
        XCTAssertGreaterThan(total.activated, 3)
    }

    /// A link removed from the middle of a long chain after a constant upstream of it changed (a root resize),
    /// alone or in one batch after a constraint that is an ordinary row: the link's definition is dropped while
    /// used and what uses it is rewritten from the flat constants of the definitions before it. Those are read
    /// from the evaluated values before the call changes anything (O(terms)), not by walking the chain upstream
    /// (O(n)); the values must be the chain's own.
    func testRemovalAfterAConstantChangeReadsFlatConstantsFromValues() throws {
        for batch in [true, false] {
            let n = 3000, k = n / 2
            let s = Solver()
            let x = (0..<n).map { s.addVariable(name: "x\($0)") }
            let root = try s.add(Expression([Term(x[0], 1)], constant: -10), .equal)
            var gap = (0..<n).map { 1 + Double($0 % 7) }
            func link(_ i: Int) throws -> Constraint {
                try s.add(Expression([Term(x[i], 1), Term(x[i - 1], -1)], constant: -gap[i]), .equal)
            }
            var links = [Constraint?](repeating: nil, count: n)
            for i in 1..<n { links[i] = try link(i) }
            // Taking link k out and back once computes the expansions of the definitions before it.
            try s.remove(links[k]!)
            links[k] = try link(k)
            // (Alone, the link goes without it: a restricted row that holds the link's marker would be the row the
            // marker leaves by, and the definition would be activated instead.)
            let cap = batch ? try s.add(Expression([Term(x[n - 1], 1)], constant: -1e7), .lessOrEqual) : nil
            s.updateVariables()
            try s.setConstant(-25, of: root)   // x0 == 25: every flat constant downstream is out of date
            s.updateVariables()
            let before = s._flatConstants, removals = s._definitionRemovals
            if let cap { try s.remove([cap, links[k]!]) } else { try s.remove(links[k]!) }
            XCTAssertEqual(s._definitionRemovals.used, removals.used + 1, "the link is dropped while used")
            let walked = s._flatConstants.rowsWalked - before.rowsWalked
            XCTAssertLessThan(walked, 20, "batch \(batch): \(walked) definitions walked upstream")
            XCTAssertGreaterThan(s._flatConstants.fromValues, before.fromValues)
            gap[k] = 100
            links[k] = try link(k)
            s.updateVariables()
            var expected = 25.0
            for i in 0..<n {
                if i > 0 { expected += gap[i] }
                XCTAssertEqual(try s.value(of: x[i]), expected, accuracy: 1e-9, "batch \(batch): x\(i)")
            }
            XCTAssertNil(s._consistencyProblem())
        }
    }

    /// Adding constraints over the middle of a long chain after a constant upstream changed, one at a time and
    /// in a batch: their rows (bounds on variables the chain defines) are reduced through the definitions they
    /// name, whose flat constants are read from the evaluated values before the call changes anything, not by
    /// walking the chain upstream.
    func testAddAfterAConstantChangeReadsFlatConstantsFromValues() throws {
        let n = 3000, k = n / 2
        let s = Solver()
        let x = (0..<n).map { s.addVariable(name: "x\($0)") }
        let root = try s.add(Expression([Term(x[0], 1)], constant: -10), .equal)
        for i in 1..<n { _ = try s.add(Expression([Term(x[i], 1), Term(x[i - 1], -1)], constant: -2), .equal) }
        func cap(_ i: Int) -> MoaSolver.Expression { Expression([Term(x[i], 1)], constant: -1e7) }
        _ = try s.add(cap(k), .lessOrEqual)   // a first use computes the expansions of the definitions before x[k]
        s.updateVariables()
        for (round, batch) in [false, true].enumerated() {
            let origin = 100.0 * Double(round + 1)
            try s.setConstant(-origin, of: root)   // every flat constant downstream is out of date
            s.updateVariables()
            let before = s._flatConstants
            if batch {
                _ = try s.add([ConstraintSpec(cap(2), .lessOrEqual), ConstraintSpec(cap(k), .lessOrEqual)])
            } else {
                _ = try s.add(cap(k), .lessOrEqual)
            }
            let walked = s._flatConstants.rowsWalked - before.rowsWalked
            XCTAssertLessThan(walked, 20, "batch \(batch): \(walked) definitions walked upstream")
            XCTAssertGreaterThan(s._flatConstants.fromValues, before.fromValues, "batch \(batch)")
            s.updateVariables()
            XCTAssertEqual(try s.value(of: x[k]), origin + 2 * Double(k), accuracy: 1e-9, "batch \(batch)")
            XCTAssertNil(s._consistencyProblem())
        }
    }
}
