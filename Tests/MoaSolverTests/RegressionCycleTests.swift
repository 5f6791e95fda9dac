import MoaSolver
import XCTest

/// A random call sequence with nice numbers (coefficients 1, -1, 2, 0.5, -3; constants within ±200; priorities
/// 1 to 1000) whose last removal made the simplex swap two symbols forever: a coefficient of 7.4e-8 at a higher
/// level, ignored when choosing, became -1.5e-7 after a pivot on 0.5 and "improved" that level back. Found by
/// the soak test (Tests/soak), reduced to 61 calls. Every call must succeed or fail cleanly; none may be an
/// internal error.
final class RegressionCycleTests: XCTestCase {
    /// `add n (var coef)*n constant relation priority expected id`, `rm id`, `p id priority`, `edit var`,
    /// `sug var value`, `unedit var` (relation 0 ==, 1 <=, 2 >=; edits at priority 750).
    static let trace = """
edit 11 0
edit 26 0
add 2 18 -1 8 -3 116 1 250 0 844436741292037
edit 4 0
add 2 3 0.5 19 1 -68 0 250 0 844445331226632
add 3 2 1 9 -3 28 -3 -11 1 1000 0 844432446324754
edit 3 0
add 1 24 -3 -136 2 250 0 844436741292045
sug 26 72 0
add 3 18 1 8 0.5 13 0.5 172 1 999 0 844436741292061
edit 24 0
add 2 19 0.5 10 2 -7 1 750 0 844432446324778
edit 16 0
add 3 21 -3 0 2 11 -3 -36 1 750 0 844432446324782
add 3 8 -1 22 -3 12 1 43 0 1000 0 844432446324793
add 3 1 1 3 1 12 -3 -105 0 1000 0 844436741292071
add 1 22 2 -27 0 1000 0 844436741292055
add 1 21 2 -7 0 999 0 844436741292095
add 3 1 -3 16 -3 10 -3 138 0 250 0 844441036259349
p 844436741292055 915 0
edit 13 0
add 1 2 1 183 0 750 0 844436741292090
edit 1 0
add 1 2 1 43 2 750 0 844445331226639
add 2 7 -3 6 0.5 -50 0 999 0 844441036259340
sug 1 -200 0
add 1 21 0.5 96 1 1000 0 844449626193927
rm 844441036259349 0
add 1 12 1 -193 0 999 0 844445331226645
rm 844449626193927 0
add 3 31 -1 14 -3 27 1 75 0 1000 0 844453921161223
add 3 16 1 26 2 16 2 -51 1 1000 0 844458216128534
p 844436741292095 341 0
add 1 28 2 69 0 1000 0 844441036259352
add 2 8 1 2 0.5 -115 2 999 0 844441036259383
add 2 8 -3 7 2 159 1 1000 0 844441036259421
add 3 8 1 4 -3 20 1 73 2 1000 0 844458216128555
add 3 17 -3 0 -1 24 -3 102 1 999 0 844458216128568
add 3 21 0.5 16 2 14 -3 105 0 999 0 844475395997703
unedit 3 0
add 2 6 -3 1 1 109 0 1000 0 844436741292052
sug 11 295 0
add 3 10 -3 20 0.5 16 -1 98 2 1 0 844441036259376
add 2 5 -1 1 2 175 0 999 0 844462511095833
add 2 9 1 16 2 -66 1 750 0 844449626193948
add 2 31 1 24 2 -64 2 750 0 844449626193994
add 3 0 2 23 -1 21 2 -153 2 1000 0 844445331226661
add 2 18 0.5 5 1 38 0 1000 0 844449626193922
add 2 23 -1 18 2 -108 0 750 0 844445331226718
add 2 1 -3 17 0.5 101 0 1000 0 844449626194005
add 1 10 1 48 2 1000 0 844475395997710
add 3 9 0.5 12 0.5 6 1 32 0 250 0 844441036259404
add 3 17 2 7 -3 14 0.5 146 2 999 0 844475395997702
add 1 27 1 66 0 999 0 844453921161256
add 2 8 -1 27 -1 -74 0 999 0 844449626193971
rm 844449626193948 0
add 2 21 0.5 28 -3 -199 0 1000 0 844462511095857
add 2 10 1 14 -1 34 1 1000 0 844445331226656
add 3 21 0.5 31 0.5 21 -3 92 2 1000 0 844466806063139
rm 844462511095857 0
rm 844449626193971 0
"""

    func testNoInternalErrorOnTheReducedSequence() throws {
        let s = Solver()
        let v = (0..<32).map { _ in s.addVariable() }
        var byID: [String: Constraint] = [:]
        for line in RegressionCycleTests.trace.split(separator: "\n") {
            let f = line.split(separator: " ").map(String.init)
            do {
                switch f[0] {
                case "add":
                    let n = Int(f[1])!
                    let terms = (0..<n).map { Term(v[Int(f[2 + 2 * $0])!], Double(f[3 + 2 * $0])!) }
                    let relation = [Relation.equal, .lessOrEqual, .greaterOrEqual][Int(f[3 + 2 * n])!]
                    byID[f[6 + 2 * n]] = try s.add(Expression(terms, constant: Double(f[2 + 2 * n])!), relation,
                                                   priority: Double(f[4 + 2 * n])!)
                case "rm": if let c = byID[f[1]] { try s.remove(c) }
                case "p": if let c = byID[f[1]] { try s.setPriority(Double(f[2])!, of: c) }
                case "edit": try s.addEditVariable(v[Int(f[1])!], priority: 750)
                case "sug": try s.suggestValue(Double(f[2])!, for: v[Int(f[1])!])
                case "unedit": try s.removeEditVariable(v[Int(f[1])!])
                default: XCTFail("unknown step \(line)")
                }
            } catch SolverError.internalError(let m) {
                XCTFail("\(line): internal error: \(m)")
            } catch {
                // A conflict or another expected failure: it changed nothing.
            }
            XCTAssertNil(s._consistencyProblem(), "after \(line)")
        }
    }
}
