import MoaSolver
import XCTest

/// Call sequences with nice numbers that once ended in an internal error (`NumericsTraces`). Every call must
/// succeed or fail cleanly (a conflict changes nothing); none may be an internal error, and after every call the
/// tableau must agree with the constraints and the objective with its definition (`_consistencyProblem`).
final class RegressionNumericsTests: XCTestCase {
    func testNoEndlessSwapOnTheReducedSequence() { replay(NumericsTraces.cycle) }

    func testArtificialNoiseIsDroppedNotAnError() { replay(NumericsTraces.artificialNoise) }

    /// The trace once wore the tableau out (its last removal needed a rebuild); definitions chosen by rank no
    /// longer take that path, so the rebuild is forced here too: it keeps the values the optimum fixes and gives
    /// a consistent tableau. (The system ends ambiguous: x2 moves along a costless direction, and which optimal
    /// vertex holds it depends on the path, 399.42 from the constraints afresh, 407.11 since adds that phase one
    /// made feasible go through the dual simplex.)
    func testWornTableauIsRebuiltFromTheConstraints() throws {
        let (s, v) = replay(NumericsTraces.wornTableau)
        XCTAssertLessThanOrEqual(s._refactorizations, 1)
        s.updateVariables()
        XCTAssertNil(s._deepConsistencyProblem())
        let free = s.freeDirections()
        XCTAssertEqual(free.moved, [v[2]])
        let before = try v.map { try s.value(of: $0) }
        XCTAssertTrue(s._rebuild())
        s.updateVariables()
        XCTAssertNil(s._deepConsistencyProblem())
        let after = try v.map { try s.value(of: $0) }
        for i in before.indices where !free.moved.contains(v[i]) && !free.maybe.contains(v[i]) {
            XCTAssertEqual(before[i], after[i], accuracy: 1e-6, "x\(i)")
        }
    }

    /// A long run of adds and removals with nice numbers wore the rows until the tableau refused a required
    /// constraint that a fresh solve accepts ("cannot hold (the solver named no other constraint)"). Every call
    /// of the recording succeeds, and the values agree with a tableau made afresh from the constraints. (Since
    /// equalities that hold a variable nothing else holds define it, the recording no longer reaches the
    /// refusal; `testARefusalByRoundingRebuildsAndRetries` takes that path on purpose. Its rows still carry
    /// residue of up to 1e-5 in their coefficients at the end, as they did before, which the rebuild removes:
    /// docs/NOTES.md, Known gaps.)
    func testRoundingDoesNotRefuseAConstraint() throws {
        let s = Solver()
        var vars: [Variable] = []
        var cons: [Constraint] = []
        for (n, step) in ChainedWidthsTrace.calls.split(separator: "\n").enumerated() {
            let f = step.split(separator: " ").map(String.init)
            do {
                switch f[0] {
                case "v": for _ in 0 ..< Int(f[1])! { vars.append(s.addVariable()) }
                case "c":
                    let relation: Relation = f[1] == "==" ? .equal : f[1] == "<=" ? .lessOrEqual : .greaterOrEqual
                    var terms: [Term] = []
                    var i = 5
                    while i + 1 < f.count { terms.append(Term(vars[Int(f[i])!], Double(f[i + 1])!)); i += 2 }
                    cons.append(try s.add(Expression(terms, constant: Double(f[4])!), relation,
                                          priority: Double(f[2])!, weight: Double(f[3])!))
                case "r": try s.remove(cons[Int(f[1])!])
                case "k": try s.setConstant(Double(f[2])!, of: cons[Int(f[1])!])
                case "u": s.updateVariables()
                default: XCTFail("unknown step \(step)"); return
                }
            } catch {
                XCTFail("call \(n) (\(step)): \(error)")
                return
            }
        }
        s.updateVariables()
        let worn = try vars.map { try s.value(of: $0) }
        XCTAssertTrue(s._rebuild())
        s.updateVariables()
        XCTAssertNil(s._consistencyProblem())
        let fresh = try vars.map { try s.value(of: $0) }
        // (Within 1e-7 of each value: at the end the worn rows put x222 = 2750.055 at 2750.055028.)
        for i in worn.indices { XCTAssertEqual(worn[i], fresh[i], accuracy: 1e-7 * max(1, abs(fresh[i])), "x\(i)") }
    }

    /// A required add that the tableau refuses while a fresh solve of the constraints accepts it (rounding
    /// residue: here the tableau lags a constraint's constant on purpose) rebuilds the tableau from the
    /// constraints and succeeds on the second try.
    func testARefusalByRoundingRebuildsAndRetries() throws {
        let s = Solver()
        let x = s.addVariable(), y = s.addVariable()
        let pin = try s.add(Expression([Term(x, 1)], constant: -10), .equal)
        try s.add(Expression([Term(y, 1), Term(x, -1)], constant: -5), .equal)
        s.updateVariables()
        try s._wear(pin, constantBy: 0.001)   // the constraint now says x == 9.999; the tableau still 10
        let rebuilds = s._refactorizations
        try s.add(Expression([Term(x, 1)], constant: -9.9995), .lessOrEqual)
        XCTAssertGreaterThan(s._refactorizations, rebuilds)
        s.updateVariables()
        XCTAssertEqual(try s.value(of: x), 9.999, accuracy: 1e-9)
        XCTAssertEqual(try s.value(of: y), 14.999, accuracy: 1e-9)
        XCTAssertNil(s._consistencyProblem())
    }

    /// Replays a trace on 32 variables; returns the solver and its variables.
    @discardableResult
    func replay(_ trace: String, file: StaticString = #filePath, line: UInt = #line) -> (Solver, [Variable]) {
        let s = Solver()
        let v = (0..<32).map { _ in s.addVariable() }
        var byID: [String: Constraint] = [:]
        for step in trace.split(separator: "\n") {
            let f = step.split(separator: " ").map(String.init)
            do {
                switch f[0] {
                case "add":
                    let n = Int(f[1])!
                    let terms = (0..<n).map { Term(v[Int(f[2 + 2 * $0])!], Double(f[3 + 2 * $0])!) }
                    let relation = [Relation.equal, .lessOrEqual, .greaterOrEqual][Int(f[3 + 2 * n])!]
                    let c = try s.add(Expression(terms, constant: Double(f[2 + 2 * n])!), relation,
                                      priority: Double(f[4 + 2 * n])!)
                    if f.count > 6 + 2 * n { byID[f[6 + 2 * n]] = c }
                case "rm": if let c = byID[f[1]] { try s.remove(c) }
                case "k": if let c = byID[f[1]] { try s.setConstant(Double(f[2])!, of: c) }
                case "p": if let c = byID[f[1]] { try s.setPriority(Double(f[2])!, of: c) }
                case "edit": try s.addEditVariable(v[Int(f[1])!], priority: 750)
                case "sug": try s.suggestValue(Double(f[2])!, for: v[Int(f[1])!])
                case "unedit": try s.removeEditVariable(v[Int(f[1])!])
                case "upd": s.updateVariables()
                default: XCTFail("unknown step \(step)", file: file, line: line)
                }
            } catch SolverError.internalError(let m) {
                XCTFail("\(step): internal error: \(m)", file: file, line: line)
            } catch {
                // A conflict or another expected failure: it changed nothing.
            }
            if let p = s._consistencyProblem() { XCTFail("after \(step): \(p)", file: file, line: line); break }
        }
        return (s, v)
    }
}
