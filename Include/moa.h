/*
** moa.h -- the C interface of Moa, a Cassowary-style constraint solver.
**
** This header is the contract: what is not declared here is not API.
**
** CONVENTIONS (they hold for every function below unless its own block says otherwise)
**
**   Status codes.   Every function returns a moa_status: MOA_OK (0) on success, another code on failure.
**                   New codes may be added in later versions; treat any unknown nonzero code as a failure.
**                   moa_errstr() names a code; moa_solver_errmsg() explains the last failure on a solver.
**
**   No partial work. A failing call leaves the solver exactly as it was. Out-parameters are written only on
**                   success.
**
**   Handles.        A moa_solver is opaque and owned by the caller: moa_solver_new() / moa_solver_free().
**                   A NULL moa_solver* gives MOA_MISUSE (and moa_solver_free(NULL) is a no-op).
**
**   Ids.            Variables (moa_var) and constraints (moa_cons) are 64-bit ids owned by their solver. 0 is
**                   never a valid id. Every call checks its ids: an id of a freed variable or a removed
**                   constraint, a variable id used as a constraint id or the reverse, an id from before
**                   moa_solver_reset(), an id from another solver, or 0, gives MOA_NOTFOUND and never a crash.
**                   (Ids carry a 16-bit tag that changes with every new solver and every reset, so a foreign
**                   id is caught unless its tag repeats, 65535 solvers or resets later.) Ids are opaque: do not
**                   compute with them.
**
**   Strings in.     NUL-terminated; copied, never kept. Invalid UTF-8 is accepted and repaired (each bad
**                   sequence becomes U+FFFD).
**
**   Strings out.    `const char **out` results point into storage owned by the solver: do not free them; they
**                   stay valid until the next call on the same solver (copy them to keep them) or until
**                   moa_solver_free(). moa_solver_errmsg() and moa_solver_conflicts() do not invalidate them.
**
**   Numbers.        double. Coefficients, constants and suggested values must be finite and within +-1e12,
**                   weights in (0, 1e12]; anything else (NaN, infinities, too large) gives MOA_INVALID.
**
**   Errors.         Every call that takes a (non-const) moa_solver* records its outcome on that solver: on
**                   success the error message becomes "not an error" and the conflict list is emptied; on
**                   failure both describe that failure. Read them right after the failing call.
**
**   Priorities.     Auto Layout's scale, in (0, 1000]. MOA_REQUIRED (1000) constraints must hold. Priorities
**                   are strict: a higher priority is never given up to better satisfy any number of lower ones.
**                   Within one priority, violations are summed, each times its constraint's weight.
**
**   Threads.        A solver may be used by one thread at a time. Separate solvers share nothing.
**
** The Swift equivalents named below live in the MoaSolver module (`import MoaSolver`).
*/
#ifndef MOA_H
#define MOA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
** MOA_API -- marks every exported function.
**
** Default visibility with GCC and Clang; dllexport/dllimport on Windows (define MOA_BUILDING when building
** the library itself there).
*/
#if defined(_WIN32)
#  if defined(MOA_BUILDING)
#    define MOA_API __declspec(dllexport)
#  else
#    define MOA_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define MOA_API __attribute__((visibility("default")))
#else
#  define MOA_API
#endif

/* ========================================================================================================== */
/* Version                                                                                                    */
/* ========================================================================================================== */

/*
** MOA_VERSION, MOA_VERSION_NUMBER -- the version of this header.
**
** MOA_VERSION is "X.Y.Z"; MOA_VERSION_NUMBER is X*1000000 + Y*1000 + Z. Compare them with the library's
** moa_libversion() / moa_libversion_number() to detect a header/library mismatch.
*/
#define MOA_VERSION_MAJOR 0
#define MOA_VERSION_MINOR 1
#define MOA_VERSION_PATCH 0
#define MOA_VERSION "0.1.0"
#define MOA_VERSION_NUMBER 1000 /* a literal (for FFI tools): MAJOR * 1000000 + MINOR * 1000 + PATCH */

/*
** moa_libversion -- the version of the library, as "X.Y.Z".
**
** Returns a static string (never NULL); do not free it. Equals MOA_VERSION when header and library match.
** Swift: none.
*/
MOA_API const char *moa_libversion(void);

/*
** moa_libversion_number -- the version of the library, as X*1000000 + Y*1000 + Z.
**
** Equals MOA_VERSION_NUMBER when header and library match. Swift: none.
*/
MOA_API int moa_libversion_number(void);

/* ========================================================================================================== */
/* Types and constants                                                                                        */
/* ========================================================================================================== */

/*
** moa_solver -- an opaque solver: its variables, constraints and edit variables.
**
** Create with moa_solver_new(), free with moa_solver_free(). Swift: `Solver`.
*/
typedef struct moa_solver moa_solver;

/*
** moa_var -- a variable of one solver, as a checked id (0 is never valid). Swift: `Variable`.
*/
typedef uint64_t moa_var;

/*
** moa_cons -- a constraint of one solver, as a checked id (0 is never valid). Swift: `Constraint`.
*/
typedef uint64_t moa_cons;

/*
** moa_status -- the result of a call: MOA_OK or one of the failure codes below.
**
** Codes are stable; new ones may be added. Swift: `SolverError` (one case maps to one code).
*/
typedef int moa_status;

#define MOA_OK            0  /* success */
#define MOA_ERROR         1  /* generic or internal error (a solver invariant failed; the call was rolled back) */
#define MOA_MISUSE        2  /* NULL handle or pointer, or a call in the wrong state (e.g. freeing a variable
                                that is still in use, deactivating an inactive constraint) */
#define MOA_NOMEM         3  /* out of memory */
#define MOA_INVALID       4  /* NaN or infinity, bad priority / weight / relation, bad count */
#define MOA_NOTFOUND      5  /* unknown or stale variable or constraint id, or not an edit variable */
#define MOA_DUPLICATE     6  /* constraint already active, or variable already an edit variable */
#define MOA_UNSATISFIABLE 7  /* a required constraint conflicts with the other required constraints */
#define MOA_PARSE         8  /* reserved for the equation parser */

/*
** moa_relation -- how a constraint relates its expression to zero: `expr == 0`, `expr <= 0`, `expr >= 0`.
**
** Any other value gives MOA_INVALID. Swift: `Relation` (same raw values).
*/
typedef enum moa_relation {
    MOA_EQ = 0,
    MOA_LE = 1,
    MOA_GE = 2
} moa_relation;

/*
** Priorities -- the named points of the priority scale (0, 1000]. Any value in the range may be used.
**
** Swift: `Priority.required`, `.high`, `.medium`, `.low`.
*/
#define MOA_REQUIRED 1000.0
#define MOA_HIGH      750.0
#define MOA_MEDIUM    500.0
#define MOA_LOW       250.0

/*
** moa_term -- one term `coef * var` of a linear expression. Swift: `Term`.
*/
typedef struct moa_term {
    moa_var var;
    double coef;
} moa_term;

/* ========================================================================================================== */
/* Errors                                                                                                     */
/* ========================================================================================================== */

/*
** moa_errstr -- the English name of a status code, e.g. "unsatisfiable required constraint".
**
** Returns a static string (never NULL, never empty); do not free it. Unknown codes give "unknown status code".
** Swift: none.
*/
MOA_API const char *moa_errstr(moa_status status);

/*
** moa_solver_errmsg -- the message of the last call on a solver.
**
** Returns "not an error" if the last call that records errors (see CONVENTIONS) succeeded, otherwise a
** message that explains the failure; for MOA_UNSATISFIABLE it names the conflicting constraints by their
** descriptions (see moa_cons_describe()). Never NULL. The string is owned by the solver and stays valid until
** the next call on that solver. For a NULL solver, returns a static string. Does not change the solver.
** Swift: `SolverError.description`.
*/
MOA_API const char *moa_solver_errmsg(const moa_solver *s);

/*
** moa_solver_conflicts -- the conflicting constraints of the last MOA_UNSATISFIABLE on this solver.
**
** Writes up to `cap` constraint ids to `out` and the full number of conflicts to `*count` (which may be
** larger than cap: call again with a larger buffer). The list is a minimal set of existing required
** constraints that cannot hold together with the one that failed: remove or relax any one of them and the
** rest can. The list is empty unless the last recording call returned MOA_UNSATISFIABLE; a successful call
** clears it. `out` may be NULL when cap is 0. Does not change the solver (not even its error message).
**
** Returns MOA_OK; MOA_MISUSE if s or count is NULL, or out is NULL with cap > 0; MOA_INVALID if cap does not
** fit in a signed size (ptrdiff_t). Swift: `SolverError.unsatisfiable(conflicts:)`.
*/
MOA_API moa_status moa_solver_conflicts(const moa_solver *s, moa_cons *out, size_t cap, size_t *count);

/* ========================================================================================================== */
/* Solver lifecycle                                                                                           */
/* ========================================================================================================== */

/*
** moa_solver_new -- create an empty solver.
**
** Returns a new solver, owned by the caller (free it with moa_solver_free()), or NULL when out of memory.
** Swift: `Solver()`.
*/
MOA_API moa_solver *moa_solver_new(void);

/*
** moa_solver_free -- free a solver and everything it owns (ids and returned strings become invalid).
**
** NULL is a harmless no-op. Freeing the same solver twice is undefined behaviour. Swift: none (ARC).
*/
MOA_API void moa_solver_free(moa_solver *s);

/*
** moa_solver_reset -- drop every variable, constraint and edit variable; the solver is as new.
**
** Every id handed out before is invalid afterwards (MOA_NOTFOUND). Reusing a solver can be faster than freeing
** it and creating a new one.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL. Swift: `Solver.reset()`.
*/
MOA_API moa_status moa_solver_reset(moa_solver *s);

/* ========================================================================================================== */
/* Variables                                                                                                  */
/* ========================================================================================================== */

/*
** moa_var_new -- create a variable (value 0 until solved).
**
** `name` is optional (NULL means ""); it is copied and used only in descriptions, dumps and messages. On
** success writes the new id to *out.
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL. Swift: `Solver.addVariable(name:)`.
*/
MOA_API moa_status moa_var_new(moa_solver *s, const char *name, moa_var *out);

/*
** moa_var_free -- free a variable; its id becomes invalid.
**
** The variable must not be used by any constraint (active or not) or be an edit variable.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL or the variable is still in use; MOA_NOTFOUND if v is not a variable
** of s. Swift: `Solver.removeVariable(_:)`.
*/
MOA_API moa_status moa_var_free(moa_solver *s, moa_var v);

/*
** moa_var_name -- the name of a variable.
**
** On success *out points to a NUL-terminated UTF-8 string owned by the solver (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_NOTFOUND if v is not a variable of s; MOA_NOMEM.
** Swift: `Solver.name(of:)`.
*/
MOA_API moa_status moa_var_name(moa_solver *s, moa_var v, const char **out);

/*
** moa_var_set_name -- rename a variable. `name` is copied; NULL means "".
**
** Returns MOA_OK; MOA_MISUSE if s is NULL; MOA_NOTFOUND if v is not a variable of s.
** Swift: `Solver.setName(_:of:)`.
*/
MOA_API moa_status moa_var_set_name(moa_solver *s, moa_var v, const char *name);

/*
** moa_var_value -- the value of a variable as of the last moa_solver_update().
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_NOTFOUND if v is not a variable of s.
** Swift: `Solver.value(of:)`.
*/
MOA_API moa_status moa_var_value(moa_solver *s, moa_var v, double *out);

/* ========================================================================================================== */
/* Constraints                                                                                                */
/* ========================================================================================================== */

/*
** moa_solver_add -- add an active constraint `sum(terms[i].coef * terms[i].var) + constant REL 0`.
**
** `terms` points to `nterms` terms (it may be NULL when nterms is 0); a variable may occur in several terms.
** `priority` is in (0, 1000]; MOA_REQUIRED constraints must hold. The weight starts at 1
** (moa_cons_set_weight()). `tag` is optional (NULL means ""), copied, and shown in descriptions and messages.
** On success writes the new id to *out. The solver's values change only at moa_solver_update().
**
** Returns MOA_OK;
**   MOA_MISUSE        if s or out is NULL, or terms is NULL with nterms > 0;
**   MOA_INVALID       if a coefficient or the constant is not finite or not within +-1e12, the priority is out
**                     of range, rel is not a moa_relation, or nterms is larger than 16777216 (2^24);
**   MOA_NOTFOUND      if a term's variable is not a variable of s;
**   MOA_UNSATISFIABLE if the constraint is required and cannot hold with the existing required constraints
**                     (see moa_solver_conflicts(); the constraint is not added).
** Swift: `Solver.add(_:_:priority:weight:tag:)`.
*/
MOA_API moa_status moa_solver_add(moa_solver *s, const moa_term *terms, size_t nterms, double constant,
                                  moa_relation rel, double priority, const char *tag, moa_cons *out);

/*
** moa_cons_remove -- remove a constraint (active or not); its id becomes invalid.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL; MOA_NOTFOUND if c is not a constraint of s (for instance removed
** already). Swift: `Solver.remove(_:)`.
*/
MOA_API moa_status moa_cons_remove(moa_solver *s, moa_cons c);

/*
** moa_cons_set_active -- activate (active != 0) or deactivate (active == 0) a constraint.
**
** An inactive constraint keeps its id, expression, priority, weight and tag but takes no part in solving.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL, or when deactivating a constraint that is not active;
** MOA_NOTFOUND if c is not a constraint of s; MOA_DUPLICATE when activating an active constraint;
** MOA_UNSATISFIABLE when activating a required constraint that conflicts (see moa_solver_conflicts()).
** Swift: `Solver.activate(_:)`, `Solver.deactivate(_:)`.
*/
MOA_API moa_status moa_cons_set_active(moa_solver *s, moa_cons c, int active);

/*
** moa_cons_is_active -- whether a constraint is active: writes 1 or 0 to *out.
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_NOTFOUND if c is not a constraint of s.
** Swift: `Solver.isActive(_:)`.
*/
MOA_API moa_status moa_cons_is_active(moa_solver *s, moa_cons c, int *out);

/*
** moa_cons_constant -- the constant of a constraint's expression.
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_NOTFOUND if c is not a constraint of s.
** Swift: `Solver.constant(of:)`.
*/
MOA_API moa_status moa_cons_constant(moa_solver *s, moa_cons c, double *out);

/*
** moa_cons_set_constant -- change the constant of a constraint's expression (cheaper than remove + add).
**
** Returns MOA_OK; MOA_MISUSE if s is NULL; MOA_NOTFOUND if c is not a constraint of s; MOA_INVALID if k is
** not finite or not within +-1e12; MOA_UNSATISFIABLE if c is required and active and can no longer hold (c
** keeps its old constant). Swift: `Solver.setConstant(_:of:)`.
*/
MOA_API moa_status moa_cons_set_constant(moa_solver *s, moa_cons c, double k);

/*
** moa_cons_priority -- the priority of a constraint.
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_NOTFOUND if c is not a constraint of s.
** Swift: `Solver.priority(of:)`.
*/
MOA_API moa_status moa_cons_priority(moa_solver *s, moa_cons c, double *out);

/*
** moa_cons_set_priority -- change the priority of a constraint, also to or from MOA_REQUIRED.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL; MOA_NOTFOUND if c is not a constraint of s; MOA_INVALID if p is
** not in (0, 1000]; MOA_UNSATISFIABLE if c is active, becomes required and cannot hold (c keeps its old
** priority). Swift: `Solver.setPriority(_:of:)`.
*/
MOA_API moa_status moa_cons_set_priority(moa_solver *s, moa_cons c, double p);

/*
** moa_cons_weight -- the weight of a constraint within its priority (1 unless changed).
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_NOTFOUND if c is not a constraint of s.
** Swift: `Solver.weight(of:)`.
*/
MOA_API moa_status moa_cons_weight(moa_solver *s, moa_cons c, double *out);

/*
** moa_cons_set_weight -- change the weight of a constraint within its priority.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL; MOA_NOTFOUND if c is not a constraint of s; MOA_INVALID if w is not
** in (0, 1e12]. Swift: `Solver.setWeight(_:of:)`.
*/
MOA_API moa_status moa_cons_set_weight(moa_solver *s, moa_cons c, double w);

/*
** moa_cons_tag -- the tag given to moa_solver_add() ("" if none).
**
** On success *out points to a NUL-terminated string owned by the solver (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_NOTFOUND if c is not a constraint of s; MOA_NOMEM.
** Swift: `Solver.tag(of:)`.
*/
MOA_API moa_status moa_cons_tag(moa_solver *s, moa_cons c, const char **out);

/*
** moa_cons_describe -- a human-readable description of a constraint, e.g. "x + -1*y + 10 >= 0 @750 [tag]".
**
** The format is for people and may change; do not parse it. On success *out points to a NUL-terminated string
** owned by the solver (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_NOTFOUND if c is not a constraint of s; MOA_NOMEM.
** Swift: `Solver.description(of:)`.
*/
MOA_API moa_status moa_cons_describe(moa_solver *s, moa_cons c, const char **out);

/* ========================================================================================================== */
/* Edit variables                                                                                             */
/* ========================================================================================================== */

/*
** moa_solver_add_edit -- make a variable an edit variable, so that moa_solver_suggest() can move it.
**
** `priority` is in (0, 1000): an edit variable cannot be required.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL; MOA_NOTFOUND if v is not a variable of s; MOA_DUPLICATE if v is
** already an edit variable; MOA_INVALID if the priority is NaN, not positive, or 1000 or more.
** Swift: `Solver.addEditVariable(_:priority:)`.
*/
MOA_API moa_status moa_solver_add_edit(moa_solver *s, moa_var v, double priority);

/*
** moa_solver_remove_edit -- stop v being an edit variable.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL; MOA_NOTFOUND if v is not a variable of s or not an edit variable.
** Swift: `Solver.removeEditVariable(_:)`.
*/
MOA_API moa_status moa_solver_remove_edit(moa_solver *s, moa_var v);

/*
** moa_solver_has_edit -- whether v is an edit variable: writes 1 or 0 to *out.
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_NOTFOUND if v is not a variable of s.
** Swift: `Solver.hasEditVariable(_:)`.
*/
MOA_API moa_status moa_solver_has_edit(moa_solver *s, moa_var v, int *out);

/*
** moa_solver_suggest -- suggest a value for an edit variable; moa_solver_update() then makes it visible.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL; MOA_NOTFOUND if v is not a variable of s or not an edit variable;
** MOA_INVALID if value is not finite or not within +-1e12. Swift: `Solver.suggestValue(_:for:)`.
*/
MOA_API moa_status moa_solver_suggest(moa_solver *s, moa_var v, double value);

/* ========================================================================================================== */
/* Solving and inspection                                                                                     */
/* ========================================================================================================== */

/*
** moa_solver_update -- copy the current solution into the variables' values (moa_var_value()).
**
** Returns MOA_OK; MOA_MISUSE if s is NULL. Swift: `Solver.updateVariables()`.
*/
MOA_API moa_status moa_solver_update(moa_solver *s);

/*
** moa_solver_counts -- the number of variables and of constraints (active or not) in a solver.
**
** Either out-pointer may be NULL to skip that count.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL. Swift: `Solver.variableCount`, `Solver.constraintCount`.
*/
MOA_API moa_status moa_solver_counts(moa_solver *s, size_t *nvars, size_t *ncons);

/*
** moa_solver_dump -- a multi-line text dump of the solver's internal state, for debugging.
**
** The format may change; do not parse it. On success *out points to a NUL-terminated string owned by the
** solver (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_NOMEM. Swift: `Solver.dump()`.
*/
MOA_API moa_status moa_solver_dump(moa_solver *s, const char **out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MOA_H */
