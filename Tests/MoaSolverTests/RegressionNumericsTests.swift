import MoaSolver
import XCTest

/// Call sequences with nice numbers that once ended in an internal error (`NumericsTraces`). Every call must
/// succeed or fail cleanly (a conflict changes nothing); none may be an internal error, and after every call the
/// tableau must agree with the constraints and the objective with its definition (`_consistencyProblem`).
final class RegressionNumericsTests: XCTestCase {
    func testNoEndlessSwapOnTheReducedSequence() { replay(NumericsTraces.cycle) }

    func testArtificialNoiseIsDroppedNotAnError() { replay(NumericsTraces.artificialNoise) }

    /// The trace once wore the tableau out (its last removal needed a rebuild); definitions chosen by rank no
    /// longer take that path, so the rebuild is forced here too: it keeps the values and gives a consistent
    /// tableau.
    func testWornTableauIsRebuiltFromTheConstraints() throws {
        let (s, v) = replay(NumericsTraces.wornTableau)
        XCTAssertLessThanOrEqual(s._refactorizations, 1)
        s.updateVariables()
        XCTAssertNil(s._deepConsistencyProblem())
        let before = try v.map { try s.value(of: $0) }
        XCTAssertTrue(s._rebuild())
        s.updateVariables()
        XCTAssertNil(s._deepConsistencyProblem())
        let after = try v.map { try s.value(of: $0) }
        for i in before.indices { XCTAssertEqual(before[i], after[i], accuracy: 1e-6, "x\(i)") }
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
