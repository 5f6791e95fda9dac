import MoaSolver
import XCTest

/// Rows renumbered in rank order (`Tableau.renumberRowsInRankOrder`, after an update that found them scattered in
/// memory) change nothing a caller can see: a solver that renumbers and a twin that never does, given the same
/// calls, have the same dump after every step.
final class RowOrderTests: XCTestCase {
    /// A row of `n` boxes (left, width) in a container whose right edge is an edit variable: required links,
    /// minimum widths and a trailing space, preferred widths at two strengths. Variable 0 is the container's
    /// left, 1 its right.
    private func boxes(_ n: Int) -> (Int, [BoxSpec]) {
        var specs: [BoxSpec] = []
        func add(_ t: [(Int, Double)], _ k: Double, _ r: Relation, _ p: Double = Priority.required) {
            specs.append(.init(terms: t, constant: k, relation: r, priority: p))
        }
        add([(0, 1)], 0, .equal)
        for i in 0..<n {
            let left = 2 + 2 * i, width = left + 1
            if i == 0 { add([(left, 1), (0, -1)], -8, .equal) } else {
                add([(left, 1), (left - 2, -1), (left - 1, -1)], -8, .equal)
            }
            add([(width, 1)], -10, .greaterOrEqual)
            add([(width, 1)], -Double(30 + (i * 37) % 41), .equal, i % 3 == 0 ? Priority.medium : Priority.low)
        }
        let last = 2 * n
        add([(1, 1), (last, -1), (last + 1, -1)], -8, .greaterOrEqual)
        add([(1, 1), (last, -1), (last + 1, -1)], -8, .equal, 200)
        return (2 + 2 * n, specs)
    }

    func testRowsRenumberedInRankOrderChangeNothing() throws {
        let (nvars, specs) = boxes(120)
        var rng = SplitMix(state: 7)
        var order = Array(specs.indices)
        for i in order.indices.reversed() { order.swapAt(i, rng.int(i + 1)) }

        let renumbering = Solver(), twin = Solver()
        renumbering._renumberRows(minimumRows: 0, costFactor: 0)
        twin._renumberRows(minimumRows: .max, costFactor: 0)
        let solvers = [renumbering, twin]
        let vars = solvers.map { s in (0..<nvars + 2).map { s.addVariable(name: "x\($0)") } }
        var made: [[Constraint?]] = [Array(repeating: nil, count: specs.count), Array(repeating: nil, count: specs.count)]
        for k in solvers.indices {
            try solvers[k].addEditVariable(vars[k][1], priority: Priority.high)
            try solvers[k].suggestValue(2_000, for: vars[k][1])
            for i in order { made[k][i] = try solvers[k].add(specs[i].expression(vars[k]), specs[i].relation,
                                                             priority: specs[i].priority) }
            solvers[k].updateVariables()
        }
        XCTAssertEqual(renumbering._rowRenumberings, 1, "a shuffled build leaves its rows scattered")
        XCTAssertEqual(twin._rowRenumberings, 0)
        XCTAssertEqual(renumbering.dump(), twin.dump())
        XCTAssertNil(renumbering._consistencyProblem())

        // Then what a layout does: drags, constants, removals and adds (rows freed and made after the renumbering).
        for step in 0..<160 {
            let op = rng.int(10), i = rng.int(specs.count), value = Double(600 + rng.int(2_000))
            for k in solvers.indices {
                let s = solvers[k]
                switch op {
                case 0..<4:
                    try s.suggestValue(value, for: vars[k][1])
                case 4..<6:
                    if let c = made[k][i] { try s.setConstant(specs[i].constant - Double(step % 7), of: c) }
                case 6:
                    // A batch that defines a spare variable (a new row, and an aggregate for the bound on it),
                    // then fails: the rollback cuts the row off again.
                    let (e0, e1) = (vars[k][nvars], vars[k][nvars + 1])
                    let batch = [
                        ConstraintSpec(MoaSolver.Expression([Term(e1, 1), Term(e0, -1)], constant: -10), .equal),
                        ConstraintSpec(MoaSolver.Expression([Term(e1, 1)], constant: -100), .greaterOrEqual),
                        ConstraintSpec(MoaSolver.Expression([Term(e0, 1)], constant: -5), .equal),
                        ConstraintSpec(MoaSolver.Expression([Term(e0, 1)], constant: -6), .equal),
                    ]
                    XCTAssertThrowsError(try s.add(batch))
                case 7:
                    if let c = made[k][i] { try s.remove(c); made[k][i] = nil } else {
                        made[k][i] = try s.add(specs[i].expression(vars[k]), specs[i].relation,
                                               priority: specs[i].priority)
                    }
                default:
                    // Every removed constraint back at once, in the shuffled order.
                    for j in order where made[k][j] == nil {
                        made[k][j] = try s.add(specs[j].expression(vars[k]), specs[j].relation,
                                               priority: specs[j].priority)
                    }
                }
                s.updateVariables()
            }
            XCTAssertEqual(renumbering.dump(), twin.dump(), "step \(step)")
            // The changed variables in the same order (what a caller does next, e.g. measure, follows it).
            let changed = solvers.indices.map { k in solvers[k].takeChangedVariables().map { vars[k].firstIndex(of: $0) } }
            XCTAssertEqual(changed[0], changed[1], "step \(step)")
            if step % 40 == 0 { XCTAssertNil(renumbering._consistencyProblem(), "step \(step)") }
        }
        XCTAssertNil(renumbering._consistencyProblem())
        // Renumbered again after the adds, removals and failed batches (rows made, freed and cut off by a
        // rollback since the first renumbering).
        XCTAssertTrue(renumbering._renumberRowsNow())
        XCTAssertEqual(renumbering.dump(), twin.dump())
        XCTAssertNil(renumbering._consistencyProblem())

        // A rebuild (what numerical trouble does) makes the rows again in the constraints' order and keeps the
        // settings: the rows are renumbered again.
        let renumberings = renumbering._rowRenumberings
        XCTAssertTrue(renumbering._rebuild())
        XCTAssertTrue(twin._rebuild())
        for s in solvers { s.updateVariables() }
        XCTAssertGreaterThan(renumbering._rowRenumberings, renumberings)
        XCTAssertEqual(renumbering.dump(), twin.dump())
        XCTAssertNil(renumbering._consistencyProblem())
        for v in 0..<nvars {
            XCTAssertEqual(try renumbering.value(of: vars[0][v]), try twin.value(of: vars[1][v]))
        }
    }
}

/// A constraint as plain data, to add it to several solvers.
private struct BoxSpec {
    var terms: [(Int, Double)]
    var constant: Double
    var relation: Relation
    var priority: Double

    func expression(_ vars: [Variable]) -> MoaSolver.Expression {
        Expression(terms.map { Term(vars[$0.0], $0.1) }, constant: constant)
    }
}
