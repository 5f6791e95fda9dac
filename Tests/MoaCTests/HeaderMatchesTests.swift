// Moa — checks that Include/moa.h (imported as CMoa) declares exactly what Sources/Moa exports.
//
// `same(CMoa.f, Moa.f)` only compiles when the two function types are identical, so a signature mismatch
// between the hand-written header and a @_cdecl thunk is a build error of this test target. Two parameters
// cannot be compared directly, because the Moa module cannot name the C types: `const moa_term *` (a raw
// pointer in Swift) and `moa_relation` (UInt32 raw value); they get an adapter closure plus layout checks.
//
// Note: editing only the header does not trigger a rebuild of this target; build clean after changing moa.h.

import CMoa
import Moa
import Testing
import XCTest

/// Compiles only when both arguments have the same type.
func same<T>(_: T, _: T) {}

/// Every function in moa.h against its thunk. Not called: compiling it is the check.
func signaturesMatch() {
    same(CMoa.moa_libversion, Moa.moa_libversion)
    same(CMoa.moa_libversion_number, Moa.moa_libversion_number)
    same(CMoa.moa_errstr, Moa.moa_errstr)
    same(CMoa.moa_solver_errmsg, Moa.moa_solver_errmsg)
    same(CMoa.moa_solver_conflicts, Moa.moa_solver_conflicts)
    same(CMoa.moa_solver_new, Moa.moa_solver_new)
    same(CMoa.moa_solver_free, Moa.moa_solver_free)
    same(CMoa.moa_solver_reset, Moa.moa_solver_reset)
    same(CMoa.moa_var_new, Moa.moa_var_new)
    same(CMoa.moa_var_free, Moa.moa_var_free)
    same(CMoa.moa_var_name, Moa.moa_var_name)
    same(CMoa.moa_var_set_name, Moa.moa_var_set_name)
    same(CMoa.moa_var_value, Moa.moa_var_value)
    same(CMoa.moa_solver_add) { s, terms, nterms, constant, rel, priority, tag, out in
        // The only adapted parameters: the term pointer (same address) and the relation's raw value.
        let raw: UInt32 = rel.rawValue
        return Moa.moa_solver_add(s, UnsafeRawPointer(terms), nterms, constant, raw, priority, tag, out)
    }
    same(CMoa.moa_cons_remove, Moa.moa_cons_remove)
    same(CMoa.moa_cons_set_active, Moa.moa_cons_set_active)
    same(CMoa.moa_cons_is_active, Moa.moa_cons_is_active)
    same(CMoa.moa_cons_constant, Moa.moa_cons_constant)
    same(CMoa.moa_cons_set_constant, Moa.moa_cons_set_constant)
    same(CMoa.moa_cons_priority, Moa.moa_cons_priority)
    same(CMoa.moa_cons_set_priority, Moa.moa_cons_set_priority)
    same(CMoa.moa_cons_weight, Moa.moa_cons_weight)
    same(CMoa.moa_cons_set_weight, Moa.moa_cons_set_weight)
    same(CMoa.moa_cons_tag, Moa.moa_cons_tag)
    same(CMoa.moa_cons_describe, Moa.moa_cons_describe)
    same(CMoa.moa_solver_add_edit, Moa.moa_solver_add_edit)
    same(CMoa.moa_solver_remove_edit, Moa.moa_solver_remove_edit)
    same(CMoa.moa_solver_has_edit, Moa.moa_solver_has_edit)
    same(CMoa.moa_solver_suggest, Moa.moa_solver_suggest)
    same(CMoa.moa_solver_update, Moa.moa_solver_update)
    same(CMoa.moa_solver_counts, Moa.moa_solver_counts)
    same(CMoa.moa_solver_dump, Moa.moa_solver_dump)

    // The types the thunks assume.
    same(moa_var.self, UInt64.self)
    same(moa_cons.self, UInt64.self)
    same(moa_status.self, Int32.self)
}

final class HeaderMatchesTests: XCTestCase {
    /// The layout the thunks read `moa_term` with (16 bytes: id, then coefficient at offset 8).
    func testTermLayout() {
        XCTAssertEqual(MemoryLayout<moa_term>.size, 16)
        XCTAssertEqual(MemoryLayout<moa_term>.stride, 16)
        XCTAssertEqual(MemoryLayout<moa_term>.offset(of: \moa_term.var), 0)
        XCTAssertEqual(MemoryLayout<moa_term>.offset(of: \moa_term.coef), 8)
    }

    /// Header constants against the library (and the Swift core they mirror).
    func testConstants() {
        XCTAssertEqual(String(cString: CMoa.moa_libversion()), MOA_VERSION)
        XCTAssertEqual(CMoa.moa_libversion_number(), Int32(MOA_VERSION_NUMBER))
        XCTAssertEqual(MOA_EQ.rawValue, 0)
        XCTAssertEqual(MOA_LE.rawValue, 1)
        XCTAssertEqual(MOA_GE.rawValue, 2)
        XCTAssertEqual(MOA_REQUIRED, 1000)
        XCTAssertEqual(MOA_HIGH, 750)
        XCTAssertEqual(MOA_MEDIUM, 500)
        XCTAssertEqual(MOA_LOW, 250)
        let codes: [Int32] = [MOA_OK, MOA_ERROR, MOA_MISUSE, MOA_NOMEM, MOA_INVALID, MOA_NOTFOUND, MOA_DUPLICATE,
                              MOA_UNSATISFIABLE, MOA_PARSE]
        XCTAssertEqual(codes, Array(0...8))
        XCTAssertEqual(Set(codes.map { String(cString: CMoa.moa_errstr($0)) }).count, codes.count)
    }

    /// x + y == 10, x == 3 → y == 7, through the C functions.
    func testSolveThroughC() {
        let s = CMoa.moa_solver_new()
        defer { CMoa.moa_solver_free(s) }
        var x: moa_var = 0, y: moa_var = 0, c: moa_cons = 0
        XCTAssertEqual(CMoa.moa_var_new(s, "x", &x), MOA_OK)
        XCTAssertEqual(CMoa.moa_var_new(s, "y", &y), MOA_OK)
        var sum = [moa_term(var: x, coef: 1), moa_term(var: y, coef: 1)]
        XCTAssertEqual(CMoa.moa_solver_add(s, &sum, 2, -10, MOA_EQ, MOA_REQUIRED, "sum", &c), MOA_OK)
        var pin = moa_term(var: x, coef: 1)
        XCTAssertEqual(CMoa.moa_solver_add(s, &pin, 1, -3, MOA_EQ, MOA_REQUIRED, nil, &c), MOA_OK)
        XCTAssertEqual(CMoa.moa_solver_update(s), MOA_OK)
        var v = -1.0
        XCTAssertEqual(CMoa.moa_var_value(s, y, &v), MOA_OK)
        XCTAssertEqual(v, 7, accuracy: 1e-9)
    }

    /// Misuse gives a status, never a trap.
    func testMisuseThroughC() {
        var v = 0.0
        XCTAssertEqual(CMoa.moa_var_value(nil, 1, &v), MOA_MISUSE)
        let s = CMoa.moa_solver_new()
        defer { CMoa.moa_solver_free(s) }
        XCTAssertEqual(CMoa.moa_var_value(s, 0, &v), MOA_NOTFOUND)
        XCTAssertEqual(CMoa.moa_var_value(s, 12345, nil), MOA_MISUSE)
        XCTAssertEqual(CMoa.moa_solver_add(s, nil, 3, 0, MOA_EQ, MOA_LOW, nil, nil), MOA_MISUSE)
        var c: moa_cons = 0
        XCTAssertEqual(CMoa.moa_solver_add(s, nil, -1, 0, MOA_EQ, MOA_LOW, nil, &c), MOA_INVALID)
        XCTAssertEqual(CMoa.moa_solver_add(s, nil, 0, 0, moa_relation(rawValue: 7), MOA_LOW, nil, &c), MOA_INVALID)
        XCTAssertNotEqual(String(cString: CMoa.moa_solver_errmsg(s)), "not an error")
        CMoa.moa_solver_free(nil)
    }
}

/// Swift Testing (so `swift test` reports a non-zero Swift Testing count): the status names are all distinct.
@Test func statusNamesAreDistinct() {
    let names = (0...8).map { String(cString: Moa.moa_errstr(Int32($0))!) }
    #expect(Set(names).count == 9)
    #expect(String(cString: Moa.moa_errstr(-1)!) == "unknown status code")
}
