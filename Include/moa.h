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
**                   Any call that adds a constraint (moa_solver_add(), moa_cons_set_active(),
**                   moa_solver_add_edit(), ...) may also fail with MOA_LIMIT when the solver is at one of
**                   its limits, and any call that pivots (adds, removals, constant changes, suggestions,
**                   strength changes) when it reaches its pivots or time limit (see "Limits and progress" at
**                   the end).
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
**                   weights in [1e-6, 1e6]; anything else (NaN, infinities, too large) gives MOA_INVALID.
**                   The solver works in doubles. A call that meets rounding trouble it cannot explain
**                   (an unbounded direction, a cycle) rebuilds the tableau from the constraints and runs again
**                   before it reports MOA_ERROR; and an update that finds a required constraint off by more
**                   than 1e-8 of its largest term (or 1) rebuilds the tableau when that does better. Required
**                   constraints then hold to about 1e-9 relative on well-scaled systems (coefficients within a
**                   factor of 10 or so of each other, as layouts have); with coefficients spread over many
**                   orders of magnitude (1e-9 beside 1e9) they can be off by more, and MOA_ERROR can still
**                   happen (docs/NOTES.md has the measurements).
**
**   Errors.         Every call that takes a (non-const) moa_solver* records its outcome on that solver: on
**                   success the error message becomes "not an error" and the conflict list is emptied; on
**                   failure both describe that failure. Read them right after the failing call.
**
**   Priorities.     Auto Layout's scale, in (0, 1000]. MOA_REQUIRED (1000) constraints must hold. Priorities
**                   are strict: a higher priority is never given up to better satisfy any number of lower ones.
**                   Within one priority, violations are summed, each times its constraint's weight.
**
**   Threads.        A solver may be used by one thread at a time. Separate solvers share nothing. Using one
**                   solver from two threads at once is undefined behaviour and is not detected (no lock, no
**                   error code): serialize such calls yourself.
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
#define MOA_CALLBACK      9  /* a measure callback failed, or measured content did not settle (nothing changed) */
#define MOA_LIMIT        10  /* a limit was reached (rows, cells, pivots or time per call) or a progress
                                callback stopped the call (nothing changed; see "Limits and progress") */

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
** Swift: `Priority.required`, `.high`, `.medium`, `.low`, `.fit`. Every name the library knows (equation
** text, the bindings) is in one table: see moa_priority_value() and moa_priority_name().
*/
#define MOA_REQUIRED 1000.0
#define MOA_HIGH      750.0
#define MOA_MEDIUM    500.0
#define MOA_LOW       250.0
#define MOA_FIT        50.0

/*
** moa_priority_value -- the value of a priority name: "required" 1000, "high" 750, "medium" 500, ...
**
** The names are those of the equation language (`@ high`): required, max (1000), strong, high (750), medium,
** med (500), weak, low (250), fit (50), and Swift's LayoutPriority names minNonZero (1), fittingSizeLevel
** (50), belowDefaultLow (249), defaultLow (250), aboveDefaultLow (251), belowDefaultHigh (749), defaultHigh
** (750), aboveDefaultHigh (751), maxNonRequired (999). Case-sensitive.
**
** Returns MOA_OK and stores the value in *value; MOA_NOTFOUND for an unknown name (*value untouched);
** MOA_MISUSE if name or value is NULL. Swift: `Priority.value(named:)`.
*/
MOA_API moa_status moa_priority_value(const char *name, double *value);

/*
** moa_priority_name -- the index-th entry (from 0) of the priority name table, for bindings and tools that
** list the names.
**
** Returns the name (a static string; do not free it) and stores its value in *value when value is not NULL;
** returns NULL when index is negative or past the last entry. Swift: `Priority.names`.
*/
MOA_API const char *moa_priority_name(int index, double *value);

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
** moa_status_name -- the short name of a status code: "OK", "ERROR", "MISUSE", "NOMEM", "INVALID",
** "NOTFOUND", "DUPLICATE", "UNSATISFIABLE", "PARSE", "CALLBACK", "LIMIT" (the bindings' error codes), or
** "UNKNOWN".
**
** Returns a static string (never NULL); do not free it. Swift: none.
*/
MOA_API const char *moa_status_name(moa_status status);

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

/*
** moa_solver_values -- the values of n variables as of the last moa_solver_update(), into out[0..n-1]: one call
** instead of n (a binding reading back thousands of values per frame).
**
** Returns MOA_OK; MOA_MISUSE if s is NULL, or vars or out is NULL with n > 0; MOA_INVALID if n does not fit in a
** ptrdiff_t; MOA_NOTFOUND if one of the ids is not a variable of s (nothing is written).
** Swift: `Solver.value(of:)`.
*/
MOA_API moa_status moa_solver_values(moa_solver *s, const moa_var *vars, size_t n, double *out);

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
** moa_cons_spec -- one constraint of a batch for moa_solver_add_many():
** `sum(terms[i].coef * terms[i].var) + constant REL 0`, with the arguments moa_solver_add() takes, plus a weight.
** A weight of 0 means 1 (so that a zeroed struct with terms, rel and priority filled in is a complete spec).
** Swift: `ConstraintSpec`.
*/
typedef struct moa_cons_spec {
    const moa_term *terms;   /* nterms terms; NULL when nterms is 0 */
    size_t nterms;
    double constant;
    double priority;         /* (0, 1000]; MOA_REQUIRED must hold */
    double weight;           /* [1e-6, 1e6], or 0 for 1 */
    const char *tag;         /* NULL means "" */
    moa_relation rel;
} moa_cons_spec;

/*
** moa_solver_add_many -- add the n constraints specs[0..n-1] in one call, all or nothing.
**
** The batch's variables that no constraint holds yet are ranked first by the batch's own required equalities,
** so the tableau built, and the time it takes, depend neither on the order of the specs nor on the order the
** variables were made in: a program that makes its variables and lists its constraints in arbitrary orders (a
** hash table's) builds what adding them grown from one end would (a 10,000-link chain numbered and listed at
** random: 33k cells instead of 1.9M, and milliseconds instead of seconds). moa_solver_add() one at a time
** cannot do this: it sees one constraint at a time. The work limits (moa_solver_set_limit(), the progress
** function) cover the whole batch. On success writes the new ids to out[0..n-1], in the order of the specs.
** n may be 0 (specs and out may then be NULL).
**
** On failure nothing changes (the adds run in one transaction: the solver is as it was before the call, its
** dump included), out is not written, and *failed (when failed is not NULL) is the index of the spec that
** failed (n when the call itself is refused: a NULL array, a call from the progress function). The statuses are moa_solver_add()'s, for that spec; for MOA_UNSATISFIABLE,
** moa_solver_conflicts() lists the conflicting constraints that were in the solver before the call and
** moa_solver_batch_conflicts() the indexes of the batch's other specs in the same minimal set.
**
** Returns MOA_OK;
**   MOA_MISUSE        if s is NULL, specs or out is NULL with n > 0, or a spec's terms is NULL with nterms > 0;
**   MOA_INVALID       as moa_solver_add(), or a weight out of range, or n larger than 16777216 (2^24);
**   MOA_NOTFOUND      if a term's variable is not a variable of s;
**   MOA_UNSATISFIABLE if a required spec cannot hold with the required constraints and the specs before it;
**   MOA_LIMIT         if the batch reached a limit.
** Swift: `Solver.add(_: [ConstraintSpec])`.
*/
MOA_API moa_status moa_solver_add_many(moa_solver *s, const moa_cons_spec *specs, size_t n, moa_cons *out,
                                       size_t *failed);

/*
** moa_solver_batch_conflicts -- after a moa_solver_add_many() that returned MOA_UNSATISFIABLE: the indexes of
** the batch's specs (besides the failing one) in the minimal conflicting set, ascending, into out[0..cap-1];
** writes the full count to *count (0 after any other call). moa_solver_conflicts() lists the set's constraints
** that were in the solver before the call. Like moa_solver_conflicts(), it records no outcome.
**
** Returns MOA_OK; MOA_MISUSE if s or count is NULL, or out is NULL with cap > 0.
*/
MOA_API moa_status moa_solver_batch_conflicts(const moa_solver *s, size_t *out, size_t cap, size_t *count);

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
** in [1e-6, 1e6]. Swift: `Solver.setWeight(_:of:)`.
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

/* ========================================================================================================== */
/* Layout: conventions                                                                                        */
/* ========================================================================================================== */

/*
** THE LAYOUT LEVEL (everything below this line) -- views, the equation language, solving, motion, pictures.
**
** It follows the CONVENTIONS at the top of this header, with "solver" read as "layout", and these additions:
**
**   Handles.        A moa_layout is opaque and owned by the caller: moa_layout_new() / moa_layout_free().
**                   A NULL moa_layout* gives MOA_MISUSE (and moa_layout_free(NULL) is a no-op).
**
**   Ids.            Views (moa_view), layout constraints (moa_lcons), animations (moa_animation), collapsibles
**                   (moa_collapsible) and pan drivers (moa_pan) are 64-bit ids owned by their layout. 0 is
**                   never valid. Every call checks its ids: 0, an id of a removed view or constraint, a freed
**                   collapsible or pan driver, an id of another layout (caught unless its 16-bit layout tag
**                   repeats, 65535 layouts later), or an id of another kind (a view id passed as a constraint
**                   id) gives MOA_NOTFOUND and never a crash. Ids are never reused within a layout. Do not
**                   compute with them.
**
**   Status codes.   The layout maps its failures onto the codes above:
**                     MOA_PARSE         equation text that does not follow the grammar, names an unknown
**                                       view or attribute, or has tokens left over (see moa_error_info);
**                     MOA_UNSATISFIABLE a required constraint cannot hold (see moa_layout_conflicts());
**                     MOA_INVALID       NaN or infinite numbers, numbers out of range, a bad view name,
**                                       priorities outside [1, 1000], a superview change that makes a cycle,
**                                       changing a constraint the layout owns (root size, guides);
**                     MOA_DUPLICATE     a view name already taken;
**                     MOA_NOTFOUND      a stale or foreign id, an unknown name, xeq naming no constraint;
**                     MOA_MISUSE        NULL pointers, moa_layout_advance()/moa_layout_seek() from a callback,
**                                       any call on a layout whose free is pending (see Callbacks);
**                     MOA_LIMIT         any call that adds constraints, at a limit or stopped by the
**                                       progress callback (see "Limits and progress"); nothing changed;
**                     MOA_ERROR         an internal failure (please report it); nothing changed.
**                   moa_layout_error_info() gives the finer kind ("unknownView", "cycle", ...).
**
**   No partial work. A failing call leaves the layout exactly as it was (constraints, constants, priorities,
**                   view properties, solved frames). Out-parameters are written only on success.
**
**   Errors.         Every call that takes a (non-const) moa_layout* records its outcome on that layout: on
**                   success the message becomes "not an error" and the error info and conflict list are
**                   cleared; on failure they describe that failure. moa_layout_errmsg(),
**                   moa_layout_error_info() and moa_layout_conflicts() read the record without changing it.
**
**   Strings out.    `const char **out` results point into storage owned by the layout: do not free them; they
**                   stay valid until the next call that takes a non-const moa_layout* on the same layout, or
**                   until moa_layout_free(). The strings of moa_layout_errmsg() and moa_layout_error_info()
**                   stay valid until the next call that records an outcome.
**
**   Arrays out.     Functions that list things take (out, cap, count): they write at most `cap` items to
**                   `out` and the full number to `*count` (which may exceed cap: call again with a larger
**                   buffer). `out` may be NULL when cap is 0; `count` must not be NULL.
**
**   Frames.         A view's frame (moa_rect) is relative to its superview (UIKit's `frame`); its frame in root
**                   space is relative to the root's top-left corner; y grows downwards. Frames are those of
**                   the last solve: moa_layout_solve(), moa_layout_advance(), moa_layout_seek(), or a call
**                   that says it solves first if needed.
**
**   Time.           Nothing reads the wall clock or starts a thread. Animations move only when the caller
**                   calls moa_layout_advance() or moa_layout_seek(); the same calls give the same frames,
**                   bit for bit.
**
**   Callbacks.      Moa calls back into C in three places: animation completions (moa_done_fn) and pan rests
**                   (moa_rest_fn), from inside moa_layout_advance() / moa_layout_seek() (each frame's
**                   completions after that frame is solved, in the order of the moment each animation ended,
**                   then of creation); and `?` reports (moa_text_fn), from inside moa_layout_eq(),
**                   moa_layout_eqs() and moa_layout_xeq() after their work is done and before they return.
**                   Inside a callback:
**                     - any moa_* function may be called on the same layout (read frames, change constants,
**                       start or cancel animations, add equations, remove views ...), EXCEPT
**                       moa_layout_advance() and moa_layout_seek(), which return MOA_MISUSE;
**                     - moa_layout_free() of that layout is deferred: it takes effect when the outermost
**                       moa_* call on the layout returns. From the moment it is called, every other call on
**                       the layout returns MOA_MISUSE (and records nothing), callbacks still due in that call
**                       are still made, and then the free runs as described at moa_layout_free(): strings
**                       the outer call hands out (`const char **out`) are freed with the layout before the
**                       caller sees them, so a host whose callbacks may free the layout must not read them.
**                     - the callback must return normally (no longjmp out of it: a Lua binding uses
**                       lua_pcall and raises the error after the moa_* call returned).
**                   Every completion callback given to a moa_* call that succeeded is called exactly once,
**                   at the latest when the layout is freed (then with finished = 0), so it may release its
**                   `ud` there.
**
**   Threads.        A layout may be used by one thread at a time; callbacks run on that thread. Separate
**                   layouts (and solvers) share nothing. Calls on one layout from two threads at once are
**                   undefined behaviour and are not detected (no lock, no error code); handing a layout from
**                   one thread to another between calls is fine.
**
** The Swift equivalents named below live in the MoaLayout module (`import MoaLayout`).
*/

/* ========================================================================================================== */
/* Layout: types and constants                                                                                */
/* ========================================================================================================== */

/*
** moa_layout -- an opaque layout: a root view of a size the caller sets, layout guides, views, their
** constraints, a clock and its animations.
**
** Create with moa_layout_new(), free with moa_layout_free(). Swift: `Layout`.
*/
typedef struct moa_layout moa_layout;

/*
** moa_view -- a view, the root or a layout guide of one layout, as a checked id (0 is never valid).
** Swift: `View`.
*/
typedef uint64_t moa_view;

/*
** moa_lcons -- a constraint of one layout, as a checked id (0 is never valid): one made by an equation, or
** one the layout made itself (a view's intrinsic size, the root size, a guide), as conflict and violation
** lists may name. Swift: `LayoutConstraint`.
*/
typedef uint64_t moa_lcons;

/*
** moa_animation -- an animation of one layout, as a checked id (0 is never valid). Swift: `Animation`.
*/
typedef uint64_t moa_animation;

/*
** moa_collapsible -- a collapsible view of one layout, as a checked id (0 is never valid).
** Swift: `Collapsible`.
*/
typedef uint64_t moa_collapsible;

/*
** moa_pan -- a pan-gesture driver of one layout, as a checked id (0 is never valid). Swift: `PanDriver`.
*/
typedef uint64_t moa_pan;

/*
** moa_chain -- a chain of views of one layout, as a checked id (0 is never valid). Stacks and barriers have
** none of their own: they are named by their view's id. Swift: `Chain`.
*/
typedef uint64_t moa_chain;

/*
** moa_rect -- a rectangle: origin (x, y) and size (width, height), y growing downwards. Swift: `Rect`.
*/
typedef struct moa_rect {
    double x;
    double y;
    double width;
    double height;
} moa_rect;

/*
** moa_frame -- one view's frames, as moa_layout_frames() lists them. Swift: `ViewFrame`.
**
** `superview` is 0 for the root; `depth` is 0 for the root, 1 for its subviews and guides, and so on;
** `is_guide` is 1 for the layout guides.
*/
typedef struct moa_frame {
    moa_view view;
    moa_view superview;
    moa_rect frame;
    moa_rect frame_in_root;
    int depth;
    int is_guide;
} moa_frame;

/*
** moa_error_info -- the details of the last failure on a layout (moa_layout_error_info()).
**
**   code         the moa_status of the failure (MOA_OK when the last recorded call succeeded);
**   line         the 1-based line of the equation text the error is in, 0 if none;
**   offset       the byte offset (0-based, UTF-8) into that line where the offending token starts, -1 if none;
**   text_offset  the byte offset into the whole text given to the call, -1 if none;
**   length       the length in bytes of the offending token, 0 if none;
**   kind         the finer class: "parse", "unknownView", "unknownAttribute", "unsatisfiable", "invalid",
**                "duplicateName", "notFound", "stale", "cycle", "internalError", "callback", "misuse",
**                "limit", or "" on success;
**   message      what went wrong, without the location, e.g. "unknown view `calender`" (at most 512 bytes: a
**                message quoting huge text keeps its start and end around "…(N bytes left out)…");
**   source_line  the text of the offending line, whole, "" if none (moa_layout_errmsg() shows at most 160
**                bytes of it, around the offending token); invalid UTF-8 in it is repaired (U+FFFD), while
**                the offsets above count the bytes the caller gave;
**   expected     what would have been accepted at `offset`, e.g. "`==`, `<=`, `>=`", "" if nothing is known;
**   suggestion   a near name for an unknown view, attribute or priority, e.g. "calendar", "" if none;
**   source       the source name given to moa_layout_eqs_source(), "" if none.
**
** The strings are never NULL; they are owned by the layout (see CONVENTIONS, Strings out).
** Swift: `LayoutError`.
*/
typedef struct moa_error_info {
    moa_status code;
    int line;
    int offset;
    int text_offset;
    int length;
    const char *kind;
    const char *message;
    const char *source_line;
    const char *expected;
    const char *suggestion;
    const char *source;
} moa_error_info;

/*
** moa_layout_direction -- the direction in which a view's content flows, which decides what `leading` and
** `trailing` mean. MOA_INHERIT follows the superview (the root's is left-to-right).
**
** Any other value gives MOA_INVALID. Swift: `LayoutDirection` (same raw values).
*/
typedef enum moa_layout_direction {
    MOA_INHERIT = 0,
    MOA_LTR = 1,
    MOA_RTL = 2
} moa_layout_direction;

/*
** moa_axis -- a layout axis: horizontal (x, width) or vertical (y, height).
**
** Any other value gives MOA_INVALID. Swift: `LayoutAxis` (same raw values).
*/
typedef enum moa_axis {
    MOA_HORIZONTAL = 0,
    MOA_VERTICAL = 1
} moa_axis;

/*
** moa_collapse_direction -- the way a collapsing view leaves: off its superview's left, right, top or bottom
** edge.
**
** Any other value gives MOA_INVALID. Swift: `CollapseDirection`.
*/
typedef enum moa_collapse_direction {
    MOA_LEFT = 0,
    MOA_RIGHT = 1,
    MOA_UP = 2,
    MOA_DOWN = 3
} moa_collapse_direction;

/*
** moa_curve -- a timing curve for animations.
**
** The predefined curves are the values below. More curves (springs with other parameters, any cubic Bézier)
** are made with moa_layout_spring_curve() and moa_layout_bezier_curve(), which hand out values from
** MOA_CURVE_CUSTOM up, valid on that layout only. Any other value gives MOA_INVALID.
**
**   MOA_LINEAR       constant speed, cubic-bezier(0, 0, 1, 1);
**   MOA_EASE_IN      cubic-bezier(0.42, 0, 1, 1), UIKit's .curveEaseIn;
**   MOA_EASE_OUT     cubic-bezier(0, 0, 0.58, 1), UIKit's .curveEaseOut;
**   MOA_EASE_IN_OUT  cubic-bezier(0.42, 0, 0.58, 1), UIKit's .curveEaseInOut (halfway at half the duration);
**   MOA_SPRING       a critically damped spring (damping ratio 1, response 0.5 s) that keeps the velocity the
**                    value had (0 at rest, or that of the animation it retargets). A spring animation lasts
**                    until it settles: the duration given with it is ignored;
**   MOA_KEYBOARD_CURVE  cubic-bezier(0.38, 0.7, 0.125, 1), the curve the iOS keyboard moves with (its
**                    notifications send UIView.AnimationCurve raw value 7): pass it, with the notification's
**                    duration, to moa_layout_show_keyboard() so content moves with the keyboard.
**
** A host that gets UIKit's raw curve values maps them: 0 MOA_EASE_IN_OUT, 1 MOA_EASE_IN, 2 MOA_EASE_OUT,
** 3 MOA_LINEAR, 7 MOA_KEYBOARD_CURVE. moa_curve_name() gives the predefined curves' names.
** Swift: `AnimationCurve` (`.keyboard`, `init?(uiKitCurve:)`).
*/
typedef int moa_curve;

#define MOA_LINEAR       0
#define MOA_EASE_IN      1
#define MOA_EASE_OUT     2
#define MOA_EASE_IN_OUT  3
#define MOA_SPRING       4
#define MOA_KEYBOARD_CURVE 5
#define MOA_CURVE_CUSTOM 256 /* the first value moa_layout_spring_curve() / moa_layout_bezier_curve() return */

/*
** MOA_NO_INTRINSIC -- "no intrinsic size on this axis", for moa_view_set_intrinsic_size() (UIKit's
** UIViewNoIntrinsicMetric). Intrinsic sizes are otherwise 0 or more: -1 cannot be mistaken for a size, and any
** other negative value gives MOA_INVALID. Swift: `nil`.
*/
#define MOA_NO_INTRINSIC (-1.0)

/*
** MOA_AUTO -- "the default", for moa_pan_set_options()'s drag limit (half the root's width or height at
** the start of each drag). Swift: `nil`.
*/
#define MOA_AUTO (-1.0)

/*
** MOA_VAR_MIN_X ... MOA_VAR_HEIGHT -- a view's four solver variables, as moa_layout_ambiguities() names them:
** its left edge and top edge in root space, its width and its height. Swift: `LayoutVariable`.
*/
#define MOA_VAR_MIN_X  0
#define MOA_VAR_MIN_Y  1
#define MOA_VAR_WIDTH  2
#define MOA_VAR_HEIGHT 3

/*
** MOA_SVG_CONSTRAINTS, MOA_SVG_GUIDES, MOA_SVG_NO_LABELS -- flags for the SVG functions, or-ed together
** (0: views with labels, no guides, no constraints). Unknown bits give MOA_INVALID.
**
**   MOA_SVG_CONSTRAINTS  draw the active equations between two items as lines (moa_layout_svg() only);
**   MOA_SVG_GUIDES       also draw the guides safeArea, margins and keyboard (dashed);
**   MOA_SVG_NO_LABELS    do not label the views with their names.
**
** Swift: `SVGOptions`.
*/
#define MOA_SVG_CONSTRAINTS 1
#define MOA_SVG_GUIDES      2
#define MOA_SVG_NO_LABELS   4

/*
** moa_text_fn -- receives a `?` report (moa_layout_set_debug_callback()): `text` is NUL-terminated UTF-8,
** one or more lines ending in "\n", valid only during the call. See CONVENTIONS, Callbacks.
** Swift: `Layout.debugOutput`.
*/
typedef void (*moa_text_fn)(const char *text, void *ud);

/*
** moa_done_fn -- an animation's completion: called once, with the layout, the animation's id, finished = 1
** when every property reached its target or 0 when it was taken over by a newer animation, stopped,
** cancelled, failed or the layout is being freed, and the `ud` given with it. See CONVENTIONS, Callbacks.
** Swift: the `completion` of `Animator.animate`.
*/
typedef void (*moa_done_fn)(moa_layout *L, moa_animation animation, int finished, void *ud);

/*
** moa_rest_fn -- a pan driver's snap completion: called once, with the layout, the driver's id, the rest
** position (an offset) the snap headed for, finished (as for moa_done_fn; 1 means the rest position was
** reached) and the `ud` given with it. See CONVENTIONS, Callbacks. Swift: the `completion` of
** `PanDriver.ended(velocity:completion:)`.
*/
typedef void (*moa_rest_fn)(moa_layout *L, moa_pan pan, double rest, int finished, void *ud);

/* ========================================================================================================== */
/* Layout: lifecycle, errors, root and guides                                                                 */
/* ========================================================================================================== */

/*
** moa_layout_new -- create a layout whose root is width x height points (origin 0, 0).
**
** The layout has the root (named "root") and three guides: "safeArea" (the root inset by the safe-area
** insets, 0 by default), "margins" (the root inset by the root's layout margins, 8 by default) and
** "keyboard" (the root's width at its bottom, keyboard height 0 by default).
**
** Returns a new layout, owned by the caller (free it with moa_layout_free()), or NULL when a size is negative,
** NaN, infinite or above 1e9, or when out of memory. Swift: `Layout(width:height:)`.
*/
MOA_API moa_layout *moa_layout_new(double width, double height);

/*
** moa_layout_free -- free a layout and everything it owns (ids and returned strings become invalid).
**
** First every completion callback not yet called is called, with finished = 0 (see CONVENTIONS, Callbacks);
** during those calls the layout answers every call with MOA_MISUSE. Called from a callback of the same
** layout, the free is deferred until the outermost moa_* call on the layout returns. NULL is a harmless
** no-op. Freeing the same layout twice is undefined behaviour. Swift: none (ARC).
*/
MOA_API void moa_layout_free(moa_layout *L);

/*
** moa_layout_errmsg -- the message of the last call on a layout.
**
** Returns "not an error" if the last call that records errors (see CONVENTIONS) succeeded, otherwise the
** failure with its location first and, for equation text, the line with a caret under the offending token (of a
** line longer than 160 bytes, the part around the token, cut ends marked "…"):
**
**     line 2, byte 0: unknown view `calender` (did you mean `calendar`?)
**         calender.top == 0
**         ^~~~~~~~
**
** For MOA_UNSATISFIABLE it names the conflicting constraints by their equations and lines. Never NULL. The
** string is owned by the layout (see CONVENTIONS). For a NULL layout, returns a static string. Does not change
** the layout. Swift: `LayoutError.description`.
*/
MOA_API const char *moa_layout_errmsg(const moa_layout *L);

/*
** moa_layout_error_info -- the details of the last call's failure (see moa_error_info).
**
** On success writes the details to *out (code MOA_OK and empty strings when the last recorded call
** succeeded). Does not change the layout.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL. Swift: `LayoutError`.
*/
MOA_API moa_status moa_layout_error_info(const moa_layout *L, moa_error_info *out);

/*
** moa_layout_conflicts -- the conflicting constraints of the last MOA_UNSATISFIABLE on this layout.
**
** Lists (see CONVENTIONS, Arrays out) a minimal set of existing required constraints that cannot hold
** together with the one that failed: remove or relax any one of them and the rest can. They may include
** constraints the layout made (a view's intrinsic size at priority 1000, the root size). The list is empty
** unless the last recorded call returned MOA_UNSATISFIABLE. Does not change the layout.
**
** Returns MOA_OK; MOA_MISUSE if L or count is NULL, or out is NULL with cap > 0; MOA_INVALID if cap does not
** fit in a ptrdiff_t. Swift: `LayoutError.conflicts`.
*/
MOA_API moa_status moa_layout_conflicts(const moa_layout *L, moa_lcons *out, size_t cap, size_t *count);

/*
** moa_layout_set_root_size -- set the root's size (as on rotation or a window resize).
**
** An edit of two required constraints in place, not a rebuild; frames change at the next solve.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_INVALID if a size is negative, not finite or above 1e9;
** MOA_UNSATISFIABLE if required constraints cannot hold at that size (the size stays as it was).
** Swift: `Layout.setRootSize(width:height:)`.
*/
MOA_API moa_status moa_layout_set_root_size(moa_layout *L, double width, double height);

/*
** moa_layout_root_size -- the root's size as last set. Either out-pointer may be NULL to skip it.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL. Swift: `Layout.rootWidth`, `Layout.rootHeight`.
*/
MOA_API moa_status moa_layout_root_size(moa_layout *L, double *width, double *height);

/*
** MOA_PORTRAIT, MOA_LANDSCAPE, MOA_ANY_ORIENTATION -- orientations (a bit set): the layout's, from its root
** size (landscape when wider than tall, otherwise portrait), and the ones a pan driver takes events in
** (moa_pan_set_orientations()). Swift: `Orientation`, `Orientations`.
*/
#define MOA_PORTRAIT        1
#define MOA_LANDSCAPE       2
#define MOA_ANY_ORIENTATION 3

/*
** moa_layout_orientation -- the layout's orientation from its root size as last set: MOA_LANDSCAPE when wider
** than tall, otherwise MOA_PORTRAIT. A rotation is a root-size change.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL. Swift: `Layout.orientation`.
*/
MOA_API moa_status moa_layout_orientation(moa_layout *L, int *out);

/*
** moa_layout_root -- the id of the root view.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL. Swift: `Layout.root`.
*/
MOA_API moa_status moa_layout_root(moa_layout *L, moa_view *out);

/*
** moa_layout_guide -- the id of a layout guide: "safeArea", "margins", "keyboard", or one made with
** moa_guide_new() or moa_barrier_new() by its name.
**
** Guides are items like views (equations name them: `table.bottom == keyboard.top`) but cannot have
** subviews; the layout's own three cannot be removed.
**
** Returns MOA_OK; MOA_MISUSE if L, name or out is NULL; MOA_NOTFOUND if name is not a guide's name.
** Swift: `Layout.safeArea`, `Layout.margins`, `Layout.keyboard`, `Layout.view(named:)`.
*/
MOA_API moa_status moa_layout_guide(moa_layout *L, const char *name, moa_view *out);

/*
** moa_layout_set_safe_area -- set the safe-area insets: the safeArea guide is the root inset by them.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_INVALID if an inset is not finite or beyond ±1e9;
** MOA_UNSATISFIABLE (nothing changes). Swift: `Layout.setSafeAreaInsets(_:)`.
*/
MOA_API moa_status moa_layout_set_safe_area(moa_layout *L, double top, double left, double bottom, double right);

/*
** moa_layout_set_keyboard_height -- set the keyboard guide's height at once (its bottom is the root's
** bottom); constraints attached to keyboard.top follow. To animate it, see moa_layout_show_keyboard().
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_INVALID if height is not in 0...1e9;
** MOA_UNSATISFIABLE (nothing changes). Swift: `Layout.setKeyboardHeight(_:)`.
*/
MOA_API moa_status moa_layout_set_keyboard_height(moa_layout *L, double height);

/* ========================================================================================================== */
/* Layout: views                                                                                              */
/* ========================================================================================================== */

/*
** moa_view_new -- add a view named `name` under `parent` (0 means the root).
**
** `name` must be unique within the layout, made of letters, digits and `_`, not start with a digit, and not
** be one of "view", "superview", "root", "safeArea", "margins", "keyboard"; equations name the view by it.
** The new view has margins 8, direction MOA_INHERIT, no intrinsic size and no baseline offset. On success
** writes its id to *out.
**
** Returns MOA_OK; MOA_MISUSE if L, name or out is NULL; MOA_INVALID for a bad name or a guide as parent;
** MOA_DUPLICATE if the name is taken; MOA_NOTFOUND if parent is not a view of L.
** Swift: `Layout.addView(_:in:)`.
*/
MOA_API moa_status moa_view_new(moa_layout *L, const char *name, moa_view parent, moa_view *out);

/*
** moa_views_new -- add n views under parent (0: the root) in one call, all or nothing: the bulk form of
** moa_view_new() and moa_view_set_intrinsic_size(), for bindings where a call per view costs more than the view
** (Python's ctypes: about 2 us a call). names[i] names view i; sizes is NULL or 2n numbers, the intrinsic width
** and height of view i (MOA_NO_INTRINSIC for none). out (n ids) receives the views in the order of names. The
** names are checked first; then the views are made and their sizes set as one change.
**
** Returns MOA_OK (n = 0 does nothing); MOA_MISUSE if L is NULL, or names, out or a names[i] is NULL with n > 0;
** MOA_NOTFOUND if parent is not a view of L; MOA_INVALID for a bad name, a size that is negative (other than
** MOA_NO_INTRINSIC), not finite or above 1e9, parent a guide, or n above 2^26; MOA_DUPLICATE if a name is in use or
** given twice; MOA_LIMIT (see Limits). Nothing is added on failure. Swift: `Layout.addViews(_:in:intrinsicSizes:)`.
*/
MOA_API moa_status moa_views_new(moa_layout *L, const char *const *names, size_t n, moa_view parent,
                                 const double *sizes, moa_view *out);

/*
** moa_view_free -- remove a view, its subviews and every constraint that mentions any of them.
**
** Their ids become stale (MOA_NOTFOUND); their names are free again. Collapsibles and pan drivers that use
** them answer MOA_NOTFOUND from then on (free them with their own functions).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if v is not a view of L; MOA_INVALID for the root or
** a guide. Swift: `Layout.removeView(_:)`.
*/
MOA_API moa_status moa_view_free(moa_layout *L, moa_view v);

/*
** moa_view_find -- the id of the view, root or guide named `name`.
**
** Returns MOA_OK; MOA_MISUSE if L, name or out is NULL; MOA_NOTFOUND if no item has that name.
** Swift: `Layout.view(named:)`.
*/
MOA_API moa_status moa_view_find(moa_layout *L, const char *name, moa_view *out);

/*
** moa_view_name -- the name of a view, the root ("root") or a guide.
**
** On success *out points to a NUL-terminated string owned by the layout (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if v is not a view of L; MOA_NOMEM.
** Swift: `View.name`.
*/
MOA_API moa_status moa_view_name(moa_layout *L, moa_view v, const char **out);

/*
** moa_view_superview -- the superview of a view (0 for the root; guides have the root).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if v is not a view of L.
** Swift: `View.superview`.
*/
MOA_API moa_status moa_view_superview(moa_layout *L, moa_view v, moa_view *out);

/*
** moa_view_set_superview -- move a view under another superview (0 means the root).
**
** Its constraints stay as they are; frames relative to the superview and the inherited direction follow
** the new parent.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if v or parent is not a view of L; MOA_INVALID if v is
** the root or a guide, parent is a guide, or parent is v or one of its descendants (kind "cycle");
** MOA_UNSATISFIABLE if a direction change could not hold (nothing changes). Swift: `View.setSuperview(_:)`.
*/
MOA_API moa_status moa_view_set_superview(moa_layout *L, moa_view v, moa_view parent);

/*
** moa_view_set_margins -- set a view's (or the root's) layout margins, used by the margin attributes
** (leftMargin, ..., centerXWithinMargins) and, for the root, by the margins guide. Constraints that use them
** are updated in place.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if v is not a view of L; MOA_INVALID if a margin is
** not finite or beyond ±1e9 (the bound on lengths a call takes); MOA_UNSATISFIABLE (nothing changes). Swift:
** `View.setLayoutMargins(_:)`.
*/
MOA_API moa_status moa_view_set_margins(moa_layout *L, moa_view v, double top, double left, double bottom,
                                        double right);

/*
** moa_view_set_directional_margins -- set a view's layout margins by leading and trailing edge (UIKit's
** directionalLayoutMargins): in a left-to-right view leading is the left margin, in a right-to-left one the
** right margin. They follow the view's effective direction, now and whenever it changes (its own, an
** ancestor's, or a move to another superview); constraints that use the margins are updated in place.
** moa_view_set_margins() sets them by left and right again.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if v is not a view of L; MOA_INVALID if a margin is
** not finite or beyond ±1e9; MOA_UNSATISFIABLE (nothing changes). Swift: `View.setDirectionalLayoutMargins(_:)`.
*/
MOA_API moa_status moa_view_set_directional_margins(moa_layout *L, moa_view v, double top, double leading,
                                                    double bottom, double trailing);

/*
** moa_view_set_direction -- set a view's layout direction (MOA_INHERIT follows the superview).
**
** Constraints written with leading/trailing whose first view is v or inherits its direction from v are
** mirrored or un-mirrored in place: with MOA_RTL, leading is the right edge and `+ 8` points left.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if v is not a view of L; MOA_INVALID if dir is not a
** moa_layout_direction; MOA_UNSATISFIABLE (nothing changes).
** Swift: `View.setLayoutDirection(_:)`.
*/
MOA_API moa_status moa_view_set_direction(moa_layout *L, moa_view v, moa_layout_direction dir);

/*
** moa_view_set_intrinsic_size -- set a view's intrinsic content size; MOA_NO_INTRINSIC on an axis for none.
**
** Each axis with a size gets `size >= intrinsic @ compression resistance` (default 750) and
** `size <= intrinsic @ hugging` (default 250); changing the size later changes their constants in place.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if v is not a view of L; MOA_INVALID if a size is
** negative (other than MOA_NO_INTRINSIC), not finite or above 1e9; MOA_UNSATISFIABLE (nothing changes). Swift: `View.setIntrinsicSize(width:height:)`.
*/
MOA_API moa_status moa_view_set_intrinsic_size(moa_layout *L, moa_view v, double width, double height);

/*
** moa_view_set_content_priority -- set a view's hugging and compression-resistance priorities on one axis
** (each in [1, 1000]; the equation forms are `v.hugH == low`, `v.resistV == 800`).
**
** Both change, or neither.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if v is not a view of L; MOA_INVALID if axis is not a
** moa_axis, or a priority is outside [1, 1000] or NaN; MOA_UNSATISFIABLE (nothing changes). Swift: `View.setContentHuggingPriority(_:for:)`, `View.setCompressionResistancePriority(_:for:)`.
*/
MOA_API moa_status moa_view_set_content_priority(moa_layout *L, moa_view v, moa_axis axis, double hugging,
                                                 double compression);

/*
** moa_view_set_baseline -- set a view's baseline offsets (distances from its top).
**
** `baseline` and `lastBaseline` are `top + *offset`, or the bottom edge when offset is NULL (as for a UIKit
** view without text); `firstBaseline` is `top + *first`, or as `baseline` when first is NULL. The pointers
** are read during the call only. Constraints on the baselines are updated in place.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if v is not a view of L; MOA_INVALID if an offset is
** not finite or beyond ±1e9; MOA_UNSATISFIABLE (nothing changes).
** Swift: `View.setBaselineOffset(_:first:)`.
*/
MOA_API moa_status moa_view_set_baseline(moa_layout *L, moa_view v, const double *offset, const double *first);

/*
** moa_view_frame -- a view's frame relative to its superview, as of the last solve (see CONVENTIONS, Frames).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if v is not a view of L. Swift: `View.frame`.
*/
MOA_API moa_status moa_view_frame(moa_layout *L, moa_view v, moa_rect *out);

/*
** moa_view_frame_in_root -- a view's frame in root space, as of the last solve.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if v is not a view of L.
** Swift: `View.frameInRoot`.
*/
MOA_API moa_status moa_view_frame_in_root(moa_layout *L, moa_view v, moa_rect *out);

/* ========================================================================================================== */
/* Layout: equations and constraints                                                                          */
/* ========================================================================================================== */

/*
** moa_layout_eq -- add (or update) the constraint one equation describes.
**
**     view1.attr1 REL view2.attr2 * multiplier + constant @ priority   # comment
**
** REL is ==, <= or >=; `view2.attr2` may be left out (the superview's same attribute; for width and height a
** lone number is absolute); `* m` / `/ m` default to 1, the constant to 0, the priority to required (a number
** in [1, 1000], a name such as high, low, defaultHigh, or arithmetic such as `defaultHigh - 1`). `view` and
** `superview` name view1's superview; root, safeArea, margins and keyboard are items too. A content priority
** line (`label.hugH == low`) sets it and returns the intrinsic constraint it governs. A trailing `?` sends
** how the line was interpreted to the debug callback. Re-issuing an equation with the same left side,
** relation, right side and priority updates the constant of the existing constraint and returns its id.
** `size` and `pin` make several constraints: use moa_layout_eqs(). On success writes the id to *out.
**
** Returns MOA_OK; MOA_MISUSE if L, line or out is NULL; MOA_PARSE for a grammar error, an unknown view or
** attribute, or tokens left over (see moa_layout_error_info() for the line, offset and what was expected);
** MOA_INVALID for a blank line, several equations, a size/pin line, attributes that cannot be related, bad
** numbers; MOA_UNSATISFIABLE if the constraint is required and cannot hold (see moa_layout_conflicts()).
** Swift: `Layout.eq(_:)`.
*/
MOA_API moa_status moa_layout_eq(moa_layout *L, const char *line, moa_lcons *out);

/*
** moa_layout_eqs -- add (or update) the constraints of many equation lines, all or nothing.
**
** `text` holds equations separated by newlines; blank lines and `#` comments are skipped. Every line is
** parsed and resolved before any is applied; if one fails, nothing from the call stays. On success lists the
** ids in line order (see CONVENTIONS, Arrays out; `size` gives 2, `pin` 4, a content priority line its
** intrinsic constraint, a re-issued equation its existing id): the equations are applied even when cap is
** smaller than *count (moa_layout_constraints() lists them all).
**
** Returns MOA_OK; MOA_MISUSE if L, text or count is NULL, or out is NULL with cap > 0; MOA_INVALID if cap
** does not fit in a ptrdiff_t; otherwise the codes of moa_layout_eq() for the first failing line, with its
** line number and offsets in moa_layout_error_info(). Swift: `Layout.eqs(_:)`.
*/
MOA_API moa_status moa_layout_eqs(moa_layout *L, const char *text, moa_lcons *out, size_t cap, size_t *count);

/*
** moa_layout_eqs_source -- moa_layout_eqs() for text from a file: `source` (NULL means none) names it in
** errors and reports (`source:line`), and `first_line` (1 or more) is the number of the text's first line.
**
** Returns as moa_layout_eqs(), and MOA_INVALID if first_line is below 1.
** Swift: `Layout.eqs(_:source:firstLine:)`.
*/
MOA_API moa_status moa_layout_eqs_source(moa_layout *L, const char *text, const char *source, int first_line,
                                         moa_lcons *out, size_t cap, size_t *count);

/*
** moa_layout_xeq -- remove the constraint(s) an equation names (RMExtensions' xeq).
**
** The constraint with the same left side, relation, right side and priority is removed; the constant is not
** compared. A `size` or `pin` line removes all of its constraints. Their ids become stale. On success writes
** the number removed to *removed (which may be NULL).
**
** Returns MOA_OK; MOA_MISUSE if L or line is NULL; MOA_NOTFOUND if no constraint matches (nothing is
** removed); MOA_INVALID for a content-priority line; MOA_PARSE as moa_layout_eq(). Swift: `Layout.xeq(_:)`.
*/
MOA_API moa_status moa_layout_xeq(moa_layout *L, const char *line, size_t *removed);

/*
** moa_layout_constraints -- the constraints made by equations, active or not, in creation order (see
** CONVENTIONS, Arrays out).
**
** Returns MOA_OK; MOA_MISUSE if L or count is NULL, or out is NULL with cap > 0; MOA_INVALID if cap does not
** fit in a ptrdiff_t. Swift: `Layout.constraints`.
*/
MOA_API moa_status moa_layout_constraints(moa_layout *L, moa_lcons *out, size_t cap, size_t *count);

/*
** moa_layout_describe -- every equation constraint as the equation that would create it, one per line, each
** followed by `  # line N` when it came from eqs and `inactive` when it is not active.
**
** On success *out points to a NUL-terminated string owned by the layout (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOMEM. Swift: `Layout.describeConstraints()`.
*/
MOA_API moa_status moa_layout_describe(moa_layout *L, const char **out);

/*
** moa_layout_set_debug_callback -- where the `?` reports of equations go: cb(text, ud) for each report
** (see moa_text_fn and CONVENTIONS, Callbacks). cb NULL restores the default, standard error.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL. Swift: `Layout.debugOutput`.
*/
MOA_API moa_status moa_layout_set_debug_callback(moa_layout *L, moa_text_fn cb, void *ud);

/*
** moa_lcons_constant -- the constant of a constraint (the `+ c` of its equation).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if c is not a constraint of L.
** Swift: `LayoutConstraint.constant`.
*/
MOA_API moa_status moa_lcons_constant(moa_layout *L, moa_lcons c, double *out);

/*
** moa_lcons_set_constant -- change a constraint's constant in place (one incremental re-solve at the next
** solve). For an intrinsic-size constraint this sets the view's intrinsic size on that axis.
**
** If the constant is animating, the next frame sets the animated value again (see moa_lcons_stop_animating()).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if c is not a constraint of L; MOA_INVALID if k is not
** finite or not within +-1e12, or c is a root-size or guide constraint; MOA_UNSATISFIABLE (c keeps its
** constant). Swift: `LayoutConstraint.setConstant(_:)`.
*/
MOA_API moa_status moa_lcons_set_constant(moa_layout *L, moa_lcons c, double k);

/*
** moa_lcons_priority -- the priority of a constraint, in [1, 1000].
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if c is not a constraint of L.
** Swift: `LayoutConstraint.priority`.
*/
MOA_API moa_status moa_lcons_priority(moa_layout *L, moa_lcons c, double *out);

/*
** moa_lcons_set_priority -- change a constraint's priority, also to or from required (1000). For an
** intrinsic-size constraint this sets the view's hugging or compression resistance on that axis.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if c is not a constraint of L; MOA_INVALID if p is not
** in [1, 1000], or c is a root-size or guide constraint; MOA_UNSATISFIABLE (c keeps its priority).
** Swift: `LayoutConstraint.setPriority(_:)`.
*/
MOA_API moa_status moa_lcons_set_priority(moa_layout *L, moa_lcons c, double p);

/*
** moa_lcons_active -- whether a constraint takes part in solving: writes 1 or 0 to *out.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if c is not a constraint of L.
** Swift: `LayoutConstraint.isActive`.
*/
MOA_API moa_status moa_lcons_active(moa_layout *L, moa_lcons c, int *out);

/*
** moa_lcons_set_active -- activate (active != 0) or deactivate (active == 0) an equation constraint; an
** inactive one keeps its id. Setting the state it already has is a no-op.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if c is not a constraint of L; MOA_INVALID for a
** constraint the layout made (intrinsic, root size, guide); MOA_UNSATISFIABLE when activating a required
** constraint that cannot hold. Swift: `LayoutConstraint.setActive(_:)`.
*/
MOA_API moa_status moa_lcons_set_active(moa_layout *L, moa_lcons c, int active);

/*
** moa_lcons_describe -- the equation that would create a constraint, e.g. "table.top == calendar.bottom + 8 @
** 750": the superview is named, a multiplier of 1, a constant of 0 (with a second item) and priority 1000 are
** left out.
**
** On success *out points to a NUL-terminated string owned by the layout (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if c is not a constraint of L; MOA_NOMEM.
** Swift: `LayoutConstraint.description`.
*/
MOA_API moa_status moa_lcons_describe(moa_layout *L, moa_lcons c, const char **out);

/*
** moa_lcons_line -- the line (1-based) of the eqs text a constraint came from (the latest line that set its
** constant), or 0 when it came from moa_layout_eq() or the layout made it.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if c is not a constraint of L.
** Swift: `LayoutConstraint.line`.
*/
MOA_API moa_status moa_lcons_line(moa_layout *L, moa_lcons c, int *out);

/*
** moa_lcons_remove -- remove an equation constraint; its id becomes stale.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if c is not a constraint of L; MOA_INVALID for a
** constraint the layout made (change the view, root size or guide instead). Swift: `Layout.remove(_:)`.
*/
MOA_API moa_status moa_lcons_remove(moa_layout *L, moa_lcons c);

/* ========================================================================================================== */
/* Layout: solving and reading                                                                                */
/* ========================================================================================================== */

/*
** moa_layout_solve -- read the solved values and update the frames of the views that moved.
**
** On success writes the number of views whose frame changed (moa_layout_changed_views()) to *changed, which
** may be NULL. Both the solver and this call work incrementally: only the variables a change touched are
** re-evaluated and only the frames of views that moved (and of their subviews, when a view's origin moved) are
** recomputed, so a solve after a small change is cheap however large the layout.
**
** Views with measured content (moa_view_set_measure(), moa_view_set_text()) are measured first (see "content
** that sizes itself" below).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL or from a measure callback; MOA_CALLBACK when a measure callback
** failed or measured content did not settle; MOA_LIMIT when the constraints measured content adds reach a limit
** (see Limits; in both the frames stay as they were). Swift: `Layout.solve()`.
*/
MOA_API moa_status moa_layout_solve(moa_layout *L, size_t *changed);

/*
** moa_layout_changed_views -- the views (and root) whose frame changed at the last solve, in creation order
** (guides are not listed; see CONVENTIONS, Arrays out and Frames). After moa_layout_advance() and
** moa_layout_seek(): the views their frame changed.
**
** Returns MOA_OK; MOA_MISUSE if L or count is NULL, or out is NULL with cap > 0; MOA_INVALID if cap does not
** fit in a ptrdiff_t. Swift: `Layout.changedViews`.
*/
MOA_API moa_status moa_layout_changed_views(moa_layout *L, moa_view *out, size_t cap, size_t *count);

/*
** moa_layout_views -- the views added with moa_view_new() (not the root or the guides), in creation order
** (see CONVENTIONS, Arrays out).
**
** Returns MOA_OK; MOA_MISUSE if L or count is NULL, or out is NULL with cap > 0; MOA_INVALID if cap does not
** fit in a ptrdiff_t. Swift: `Layout.views`.
*/
MOA_API moa_status moa_layout_views(moa_layout *L, moa_view *out, size_t cap, size_t *count);

/*
** moa_layout_frames -- the frames of the root, every view and the guides made with moa_guide_new() or
** moa_barrier_new() (and, with include_guides != 0, the layout's own guides and the spacers of stacks and
** chains) at the current time, solving first if needed. Hierarchy order: the root first, each view before its
** subviews, subviews in the order they were added (see moa_frame and CONVENTIONS, Arrays out).
**
** Cost: the frames are copied from the layout's frame table in an order it keeps until the hierarchy changes
** (views added, removed or moved); about 10 ns a view at 10,000 views, 20 ns at 100,000 (one machine), plus
** one walk of the views after a change of the hierarchy.
**
** Returns MOA_OK; MOA_MISUSE if L or count is NULL, or out is NULL with cap > 0; MOA_INVALID if cap does not
** fit in a ptrdiff_t; MOA_CALLBACK and MOA_LIMIT as moa_layout_solve(), which it runs first when needed.
** Swift: `Layout.snapshot(time:includeGuides:)`.
*/
MOA_API moa_status moa_layout_frames(moa_layout *L, int include_guides, moa_frame *out, size_t cap,
                                     size_t *count);

/*
** moa_layout_changed_frames -- the frames of the views whose frame changed at the last solve (or
** moa_layout_advance() / moa_layout_seek()), in creation order: moa_layout_changed_views() with the frames, in
** one call. This is the fast way to follow an animation: the solver re-evaluates only what a change touched
** and solve recomputes only the frames that moved, so a frame in which k views move costs about k, however
** many views the layout has. Does not solve.
**
** Returns MOA_OK; MOA_MISUSE if L or count is NULL, or out is NULL with cap > 0; MOA_INVALID if cap does not
** fit in a ptrdiff_t. Swift: `Layout.changedViews` with `View.frame`, `View.frameInRoot`.
*/
MOA_API moa_status moa_layout_changed_frames(moa_layout *L, moa_frame *out, size_t cap, size_t *count);

/*
** moa_layout_violations -- the optional constraints the solver had to give up (fully or partly), highest
** priority first, and how far each is off in points (|lhs - rhs| for ==, the amount on the wrong side for
** <= and >=; under 1e-7 counts as satisfied).
**
** Writes at most cap ids to `out` and their amounts to `amount` (either may be NULL to skip it) and the full
** number to *count. Evaluated from the current solution (no moa_layout_solve() needed).
**
** Returns MOA_OK; MOA_MISUSE if L or count is NULL; MOA_INVALID if cap does not fit in a ptrdiff_t.
** Swift: `Layout.violatedConstraints()`.
*/
MOA_API moa_status moa_layout_violations(moa_layout *L, moa_lcons *out, double *amount, size_t cap,
                                         size_t *count);

/*
** moa_layout_ambiguities -- the view variables that the active constraints do not fix (Auto Layout's
** hasAmbiguousLayout, with the culprits named), in view order.
**
** Writes at most cap pairs: the view to `views` and which of its variables is free to `vars` (MOA_VAR_MIN_X,
** MOA_VAR_MIN_Y, MOA_VAR_WIDTH or MOA_VAR_HEIGHT); either may be NULL to skip it; the full number goes to
** *count (0: the layout is not ambiguous). The layout is not changed: variables that a costless direction of
** the solution moves are named at once, the others probed in a trial that puts the solver back.
**
** Returns MOA_OK; MOA_MISUSE if L or count is NULL; MOA_INVALID if cap does not fit in a ptrdiff_t.
** Swift: `Layout.ambiguities()`.
*/
MOA_API moa_status moa_layout_ambiguities(moa_layout *L, moa_view *views, int *vars, size_t cap, size_t *count);

/*
** moa_layout_svg -- the layout as an SVG document, solving first if needed.
**
** Root coordinates in points, y down; views are labelled rectangles nested as the hierarchy; `flags` is a
** combination of MOA_SVG_CONSTRAINTS, MOA_SVG_GUIDES and MOA_SVG_NO_LABELS. On success *out points to a
** NUL-terminated string owned by the layout (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_INVALID for unknown flags; MOA_NOMEM; MOA_CALLBACK and
** MOA_LIMIT as moa_layout_solve(), which it runs first when needed. Swift: `Layout.svg(_:)`.
*/
MOA_API moa_status moa_layout_svg(moa_layout *L, int flags, const char **out);

/*
** moa_layout_html -- the inspector: one self-contained HTML page (no network) that draws the layout to scale,
** solving first if needed. Write it to a file and open it in a browser. Hovering a view shows its name, its
** frame in the superview and in root space, and every constraint that touches it as equation text with its
** line; clicking a view pins it; clicking a constraint highlights its views; panels list the recent conflicts
** (the last 16 MOA_UNSATISFIABLE failures of this layout), the optional constraints given up (with how far
** each is off), the ambiguities, and every constraint with a filter. When frames were recorded
** (moa_layout_trace_start(); the recording so far, or what moa_layout_trace_stop() kept), a timeline slider
** and a play button replay them, the panel following the selected view; its last position, "now", shows the
** current layout. title NULL is "Moa layout". The data is embedded as JSON in a
** <script id="moa-data" type="application/json"> block (Swift: `Layout.inspectorJSON`).
**
** On success *out points to a NUL-terminated string owned by the layout (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOMEM; MOA_CALLBACK and MOA_LIMIT as moa_layout_solve(),
** which it runs first when needed. Swift: `Layout.html(title:trace:)`.
*/
MOA_API moa_status moa_layout_html(moa_layout *L, const char *title, const char **out);

/* ========================================================================================================== */
/* Layout: content that sizes itself                                                                          */
/* ========================================================================================================== */

/*
** Measured content -- a view whose size depends on the width it gets (a label that wraps, a chat bubble).
**
** A view with a measure callback (or text, moa_view_set_text()) sizes itself at each solve, as Auto Layout's
** intrinsic content size and Yoga's measure function do:
**   1. its natural size (width and height MOA_MEASURE_UNDEFINED, passed as INFINITY) becomes its intrinsic
**      width (and a first height);
**   2. the layout is solved; each measured view whose width changed since it was last measured is asked for its
**      size at most that wide (width MOA_MEASURE_AT_MOST, height undefined), which becomes its intrinsic height
**      and its baselines;
**   3. step 2 repeats while a height changed, at most MOA_MAX_MEASURE_ROUNDS times; content that keeps changing
**      fails the solve with MOA_CALLBACK ("did not settle") and nothing changes.
** The intrinsic sizes take the view's hugging and compression-resistance priorities (moa_view_set_content_
** priority()). Answers are cached per view and proposal (the last 8), so a resize that does not change a view's
** width does not call it, and a width seen before is answered from the cache; moa_view_invalidate() forgets
** them after the content changed. moa_layout_measure_stats() counts calls and cache hits.
**
** Callbacks: a measure callback runs inside moa_layout_solve(), moa_layout_advance(), moa_layout_seek(),
** moa_layout_frames(), moa_layout_svg() and moa_layout_fitting_size(). It may read the layout (moa_view_frame(),
** names, the root size), but every call that changes or solves the same layout returns MOA_MISUSE (that includes
** the calls that solve first: moa_layout_frames(), moa_layout_svg(), moa_view_text_lines()). A callback that returns a status
** other than MOA_OK fails the call with MOA_CALLBACK; the message is what it passed to moa_measure_error() (or
** the status name); nothing changes (moa_layout_advance()/seek(): the clock moved, the frames stayed).
*/
#define MOA_MAX_MEASURE_ROUNDS 8

/*
** moa_measure_mode -- how a proposed length binds the content (Yoga's measure modes).
*/
typedef enum moa_measure_mode {
    MOA_MEASURE_UNDEFINED = 0,  /* no length proposed (INFINITY): the size the content wants */
    MOA_MEASURE_EXACTLY   = 1,  /* exactly this length */
    MOA_MEASURE_AT_MOST   = 2   /* up to this length (wrapping text answers with its widest line) */
} moa_measure_mode;

/*
** moa_measured_size -- a measure callback's answer. Width and height in [0, 1e9]; baselines are distances from
** the top (NAN: none; first_baseline NAN: the same as baseline). The callback finds the struct zeroed with NAN
** baselines.
*/
typedef struct moa_measured_size {
    double width;
    double height;
    double baseline;        /* the last baseline (the view's lastBaseline), or NAN */
    double first_baseline;  /* the first baseline (the view's firstBaseline), or NAN */
} moa_measured_size;

/*
** moa_measure_fn -- a measure callback: the content's size for the proposal (width and height, INFINITY when
** their mode is MOA_MEASURE_UNDEFINED). Writes *out and returns MOA_OK, or returns another status to fail the
** solve (after moa_measure_error() for a message).
*/
typedef moa_status (*moa_measure_fn)(moa_layout *L, moa_view view, double width, moa_measure_mode width_mode,
                                     double height, moa_measure_mode height_mode, moa_measured_size *out,
                                     void *ud);

/*
** moa_view_set_measure -- give a view a measure callback (fn NULL: take it away, with the intrinsic size and
** baselines it gave). Replaces text set with moa_view_set_text(). ud is passed back as is; it must stay valid
** while the callback is set. A measured view's intrinsic size and baselines are the layout's: setting them
** with moa_view_set_intrinsic_size() or moa_view_set_baseline() gives MOA_INVALID.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL or from a measure callback; MOA_NOTFOUND if v is not a view of L (the
** root and guides cannot be measured: MOA_INVALID). Swift: `View.setMeasure(_:)`.
*/
MOA_API moa_status moa_view_set_measure(moa_layout *L, moa_view v, moa_measure_fn fn, void *ud);

/*
** moa_view_invalidate -- the view's content changed: forget its cached answers; the next solve measures it
** again (Auto Layout's invalidateIntrinsicContentSize).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL or from a measure callback; MOA_NOTFOUND for an unknown view;
** MOA_INVALID if the view has no measured content. Swift: `View.invalidateMeasure()`.
*/
MOA_API moa_status moa_view_invalidate(moa_layout *L, moa_view v);

/*
** moa_measure_error -- from inside a measure callback that is about to fail: the message the failing call
** reports (copied; the last one counts).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL or no measure callback of L is running.
*/
MOA_API moa_status moa_measure_error(moa_layout *L, const char *message);

/*
** moa_measure_stats -- measure callbacks called and proposals answered from the cache.
*/
typedef struct moa_measure_stats {
    size_t calls;       /* callbacks called since the layout was made (text measuring included) */
    size_t cache_hits;  /* proposals answered from a view's cache instead */
    size_t last_calls;  /* calls in the last solve */
    size_t last_rounds; /* re-solves after measuring in the last solve that measured anything */
} moa_measure_stats;

/*
** moa_layout_measure_stats -- the counts of measure calls and cache hits.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL. Swift: `Layout.measureStatistics`.
*/
MOA_API moa_status moa_layout_measure_stats(moa_layout *L, moa_measure_stats *out);

/*
** moa_text_style -- how a view's text is set. Zero a field for its default.
*/
typedef struct moa_text_style {
    double font_size;        /* points, 0.5 ... 1e4; 0: 17 (UIKit's body size), as when the style is NULL */
    double line_height;      /* distance between baselines; 0: 1.2 x the font size */
    int    max_lines;        /* at most this many lines, the last ending in "…" when cut; 0: no limit */
    double reference_width;  /* adaptive size: font_size * root width / reference_width (kept in 0.5 ... 1e4); 0: fixed */
    double min_font_size;    /* the smallest adaptive size; 0: no limit */
    double max_font_size;    /* the largest adaptive size; 0: no limit */
} moa_text_style;

/*
** moa_view_set_text -- give a view text (UTF-8; "\n" starts a paragraph), measured with the layout's font
** (moa_layout_set_font(); a built-in measurer that needs no font file until then: 0.6 em per character). Its
** natural width is the widest paragraph on one line; its height the lines wrapped by words at the width it
** gets (a word wider than the width breaks between characters); its baselines the first and last line's. An
** adaptive style (reference_width > 0) follows the root's width and is measured again when it changes (as on
** rotation). text NULL takes the text away; style NULL is the defaults. Pictures (moa_layout_svg()) draw the
** text in the font's family, broken where it was measured.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL or from a measure callback; MOA_NOTFOUND for an unknown view;
** MOA_INVALID for a style out of range, the root or a guide. Swift: `View.setText(_:)`.
*/
MOA_API moa_status moa_view_set_text(moa_layout *L, moa_view v, const char *text, const moa_text_style *style);

/*
** moa_text_metrics -- how a view's text is laid out at its solved width (moa_view_text_lines()).
*/
typedef struct moa_text_metrics {
    double lines;           /* the number of lines */
    double font_size;       /* the size used (an adaptive style's, for the root's width) */
    double line_height;     /* distance between baselines */
    double first_baseline;  /* the first baseline's distance from the view's top */
    double width;           /* the widest line */
    double height;          /* lines x line_height */
} moa_text_metrics;

/*
** moa_view_text_lines -- the lines of a view's text as drawn at its solved width (solving first if needed),
** joined by "\n", in *out (valid until the next call on L that returns text); with metrics, which may be NULL.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND for an unknown view; MOA_INVALID if the view has
** no text; MOA_CALLBACK as moa_layout_solve(). Swift: `Layout.textLines(of:)`.
*/
MOA_API moa_status moa_view_text_lines(moa_layout *L, moa_view v, const char **out, moa_text_metrics *metrics);

/*
** moa_text_advance_fn -- a font's advance width, in points, of `len` bytes of UTF-8 (one line, no newline) at
** `font_size` points; NAN (or a negative or infinite value) for an error, which fails the solve. moafont's
** moafont_advance() has this type (bindings/font/).
*/
typedef double (*moa_text_advance_fn)(const char *utf8, size_t len, double font_size, void *ud);

/*
** moa_layout_set_font -- measure the layout's text with fn (a real font), and name `family` in pictures;
** ascent and descent are fractions of the font size (for baselines). fn NULL: back to the built-in measurer.
** Every text is measured again at the next solve. ud must stay valid while the font is set.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL or from a measure callback; MOA_INVALID if ascent or descent is not
** in [0, 10]. Swift: `Layout.setTextMeasurer(_:)`.
*/
MOA_API moa_status moa_layout_set_font(moa_layout *L, const char *family, moa_text_advance_fn fn, void *ud,
                                       double ascent, double descent);

/*
** moa_layout_fitting_size -- the size a view's subtree takes under its own constraints (those among the view
** and its descendants, their intrinsic sizes, measured content) with its width pulled toward `width` at
** priority hpri and its height toward `height` at vpri: Auto Layout's systemLayoutSizeFitting. A table cell's
** height for a width: width 320 at MOA_REQUIRED, height 0 at MOA_FIT. Targets 0 at MOA_FIT give the smallest
** size; large targets, the largest. The live layout does not change (a scratch solver).
**
** Returns MOA_OK; MOA_MISUSE if L or an out pointer is NULL, or from a measure callback; MOA_NOTFOUND for an
** unknown view; MOA_INVALID for a target outside [0, 1e9] or a priority outside [1, 1000];
** MOA_UNSATISFIABLE when a required target cannot hold; MOA_CALLBACK as moa_layout_solve().
** Swift: `Layout.fittingSize(of:width:height:horizontalPriority:verticalPriority:)`.
*/
MOA_API moa_status moa_layout_fitting_size(moa_layout *L, moa_view v, double width, double height, double hpri,
                                           double vpri, double *out_width, double *out_height);

/* ========================================================================================================== */
/* Motion: the clock and animations                                                                           */
/* ========================================================================================================== */

/*
** moa_layout_advance -- move the clock forward by dt seconds (0 or more) and make a frame.
**
** A frame: animations due to start begin, every animated property is set to its value at the new time (in
** place, one incremental re-solve), the layout is solved, the frame is recorded when tracing, and the
** completions due are called (see CONVENTIONS, Callbacks). The views whose frame changed are then listed by
** moa_layout_changed_views().
**
** Returns MOA_OK; MOA_MISUSE if L is NULL or when called from a callback; MOA_INVALID if dt is negative or not
** finite; MOA_CALLBACK when the frame's measured content failed, MOA_LIMIT when measuring it reached a limit
** (in both the clock moved and the animated values were applied; the frames stayed as they were). Swift:
** `Animator.advance(by:)`.
*/
MOA_API moa_status moa_layout_advance(moa_layout *L, double dt);

/*
** moa_layout_advance_frames -- moa_layout_advance(L, dt) and then moa_layout_changed_frames(L, out, cap, count)
** in one call: the frame, and the frames of the views it moved into the caller's array. For bindings where a
** call costs more than a small frame (Python's ctypes: about 2 us a call), a frame in which one view moves is
** one call instead of two or three. When *count comes back larger than cap, the first cap frames were written:
** moa_layout_changed_frames() with a larger array gives them all until the next frame.
**
** Returns as moa_layout_advance(), and MOA_MISUSE if count is NULL, or out is NULL with cap > 0; MOA_INVALID if
** cap does not fit in a ptrdiff_t (checked first: such a call moves nothing). On MOA_CALLBACK (measured content
** failed; the clock moved) and on any other failure *count is not written. Swift: `Animator.advance(by:)` and
** `Layout.changedViews`.
*/
MOA_API moa_status moa_layout_advance_frames(moa_layout *L, double dt, moa_frame *out, size_t cap, size_t *count);

/*
** moa_layout_seek -- move the clock forward to time t and make a frame (as moa_layout_advance()). t equal to
** the current time makes a frame without moving time (it applies animations started since and calls the
** completions due).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL or when called from a callback; MOA_INVALID if t is before the
** current time (the clock never goes back) or not finite; MOA_CALLBACK and MOA_LIMIT as moa_layout_advance().
** Swift: `Animator.seek(to:)`.
*/
MOA_API moa_status moa_layout_seek(moa_layout *L, double t);

/*
** moa_layout_time -- the clock: seconds since the layout was made, as advanced by the caller.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL. Swift: `Animator.time`.
*/
MOA_API moa_status moa_layout_time(moa_layout *L, double *out);

/*
** moa_layout_is_animating -- whether any animation is running or waiting for its delay, or a completion is
** due: writes 1 or 0 to *out.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL. Swift: `Animator.isAnimating`.
*/
MOA_API moa_status moa_layout_is_animating(moa_layout *L, int *out);

/*
** moa_layout_spring_curve -- a spring curve for animations on this layout.
**
** damping_ratio: 1 is critically damped, below 1 overshoots, above 1 creeps in (must be above 0). response:
** the undamped period in seconds (must be above 0). velocity: the initial velocity in points per second (for
** instance a gesture's), or NULL to keep the velocity the value has. The same parameters give the same value.
** On success writes the curve (MOA_CURVE_CUSTOM or more) to *out; use it only with this layout.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_INVALID for a non-finite or non-positive ratio or
** response, a non-finite velocity, or more than 4096 different curves on one layout.
** Swift: `AnimationCurve.spring(Spring(dampingRatio:response:initialVelocity:))`.
*/
MOA_API moa_status moa_layout_spring_curve(moa_layout *L, double damping_ratio, double response,
                                           const double *velocity, moa_curve *out);

/*
** moa_layout_bezier_curve -- a cubic Bézier timing curve (CSS cubic-bezier(x1, y1, x2, y2)) for animations on
** this layout: x1 and x2 in [0, 1], y1 and y2 finite (they may leave [0, 1] to overshoot). The same
** parameters give the same value. On success writes the curve (MOA_CURVE_CUSTOM or more) to *out.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_INVALID for bad control points or more than 4096
** different curves on one layout. Swift: `AnimationCurve.cubicBezier(CubicBezier(_:_:_:_:))`.
*/
MOA_API moa_status moa_layout_bezier_curve(moa_layout *L, double x1, double y1, double x2, double y2,
                                           moa_curve *out);

/*
** moa_curve_name -- the name of a predefined curve: "linear", "easeIn", "easeOut", "easeInOut", "spring",
** "keyboard" for MOA_LINEAR ... MOA_KEYBOARD_CURVE (the names the Lua and Python bindings take); NULL for any
** other value (custom curves have no name).
**
** Returns a static string; do not free it. Swift: `AnimationCurve.description`.
*/
MOA_API const char *moa_curve_name(moa_curve curve);

/*
** moa_lcons_animate -- animate a constraint's constant from its current value to `to`.
**
** The animation starts `delay` seconds from now and takes `duration` seconds (each finite, 0 ... 1e12, as every
** duration and delay in this header; springs ignore the duration) along `curve`. Each frame is the exact solved layout at the interpolated constant. Starting an
** animation on a constant that is already animating retargets it smoothly (from its value and, for springs,
** its velocity at that moment); the older animation then ends with finished = 0. `done` (may be NULL) is
** called once with `ud` (see moa_done_fn). On success writes the animation's id to *out (may be NULL).
** For an intrinsic-size constraint the view's intrinsic size moves (kept at 0 or above).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if c is not a constraint of L; MOA_INVALID for a
** non-finite or out-of-range value, duration or delay, an unknown curve, or a root-size or guide constraint.
** Nothing starts on error (and done is never called). Swift: `Animator.animate(_:to:duration:curve:delay:completion:)`.
*/
MOA_API moa_status moa_lcons_animate(moa_layout *L, moa_lcons c, double to, double duration, moa_curve curve,
                                     double delay, moa_done_fn done, void *ud, moa_animation *out);

/*
** moa_lcons_animate_priority -- animate a constraint's priority to `to` (in [1, 1000]), as moa_lcons_animate().
**
** Between the first and the last frame the priority is rounded to a whole number within [1, 999]: a
** constraint never becomes required mid-animation, a required one becomes optional from the first frame, and
** a target of 1000 is set at the last frame only (which fails, ending the animation with finished = 0, if it
** cannot hold).
**
** Returns as moa_lcons_animate(). Swift: `Animator.animate(_:priority:duration:curve:delay:completion:)`.
*/
MOA_API moa_status moa_lcons_animate_priority(moa_layout *L, moa_lcons c, double to, double duration,
                                              moa_curve curve, double delay, moa_done_fn done, void *ud,
                                              moa_animation *out);

/*
** moa_layout_animate_root_size -- animate the root's size to width x height (both in one animation), as
** moa_lcons_animate().
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_INVALID for a size that is negative, not finite or above 1e9,
** a bad duration, delay or curve. Swift: `Animator.animateRootSize(width:height:duration:curve:delay:completion:)`.
*/
MOA_API moa_status moa_layout_animate_root_size(moa_layout *L, double width, double height, double duration,
                                                moa_curve curve, double delay, moa_done_fn done, void *ud,
                                                moa_animation *out);

/*
** moa_animation_cancel -- cancel an animation: a running one stops where it is (values stay at their current
** values), a delayed one never starts. Its completion is called with finished = 0 at the next frame.
** Cancelling an animation that has already ended is a no-op.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if a is not an animation of L.
** Swift: `Animation.cancel()`.
*/
MOA_API moa_status moa_animation_cancel(moa_layout *L, moa_animation a);

/*
** moa_lcons_stop_animating -- stop the running animations of a constraint's constant and priority where they
** are now (their animations end with finished = 0), so that moa_lcons_set_constant() sticks. A constraint
** that is not animating is left alone.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if c is not a constraint of L.
** Swift: `Animator.stopAnimating(_:)`.
*/
MOA_API moa_status moa_lcons_stop_animating(moa_layout *L, moa_lcons c);

/*
** moa_layout_cancel_animations -- cancel every animation, running or waiting for its delay (see
** moa_animation_cancel()).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL. Swift: `Animator.cancelAll()`.
*/
MOA_API moa_status moa_layout_cancel_animations(moa_layout *L);

/* ========================================================================================================== */
/* Layout: guides, stacks, chains, barriers and the visual format language                                    */
/* ========================================================================================================== */

/*
** These generate ordinary layout constraints that their owner keeps current as its members and properties
** change; each such constraint's origin names the owner and the rule (`stack 'toolbar': equal spacing`) in
** conflict and violation messages. The constraints cannot be changed, animated or removed by
** id (MOA_INVALID); change the owner. Every call is all or nothing: a change that would make a required
** constraint fail returns MOA_UNSATISFIABLE and changes nothing.
*/

/*
** moa_guide_new -- add a layout guide named `name` in `parent` (0 means the root): UIKit's UILayoutGuide,
** an invisible rectangle with the attributes of a view, for equations only (spacers, equal gaps, a column to
** align to). Nothing places it until equations do. It cannot hold views, is not in the changed views, and
** pictures draw it dashed. moa_layout_guide() finds it by name; moa_view_free() removes it.
**
** Returns MOA_OK; MOA_MISUSE if L, name or out is NULL; as moa_view_new() for the name and parent.
** Swift: `Layout.addGuide(_:in:)`.
*/
MOA_API moa_status moa_guide_new(moa_layout *L, const char *name, moa_view parent, moa_view *out);

/*
** moa_stack_distribution -- how a stack sizes and spaces its arranged views along its axis (UIKit's
** UIStackView.Distribution):
**
**   MOA_DISTRIBUTION_FILL                 the views fill the stack; their constraints and content priorities
**                                         decide who grows or shrinks;
**   MOA_DISTRIBUTION_FILL_EQUALLY         they fill it with equal sizes;
**   MOA_DISTRIBUTION_FILL_PROPORTIONALLY  ... with sizes in proportion to their intrinsic sizes;
**   MOA_DISTRIBUTION_EQUAL_SPACING        they keep their sizes, the gaps are equal (at least the spacing);
**   MOA_DISTRIBUTION_EQUAL_CENTERING      the distances between their centres are equal (gaps at least the
**                                         spacing).
**
** Any other value gives MOA_INVALID. Swift: `StackDistribution` (allCases order).
*/
typedef enum moa_stack_distribution {
    MOA_DISTRIBUTION_FILL = 0,
    MOA_DISTRIBUTION_FILL_EQUALLY = 1,
    MOA_DISTRIBUTION_FILL_PROPORTIONALLY = 2,
    MOA_DISTRIBUTION_EQUAL_SPACING = 3,
    MOA_DISTRIBUTION_EQUAL_CENTERING = 4
} moa_stack_distribution;

/*
** moa_stack_alignment -- how a stack places its arranged views across its axis (UIKit's
** UIStackView.Alignment): spanning it (FILL), along an edge, centred, or with first or last baselines aligned
** (horizontal stacks; in vertical ones the baseline alignments are FILL, as in UIKit). LEADING and TOP are the
** same rule (the edge where the cross axis starts), as are TRAILING and BOTTOM. For alignments other than FILL
** the stack hugs its largest view across the axis at priority 49 unless something else sizes it, and
** baseline-aligned views sit at the top of a taller stack.
**
** Any other value gives MOA_INVALID. Swift: `StackAlignment` (allCases order).
*/
typedef enum moa_stack_alignment {
    MOA_ALIGN_FILL = 0,
    MOA_ALIGN_LEADING = 1,
    MOA_ALIGN_TOP = 2,
    MOA_ALIGN_CENTER = 3,
    MOA_ALIGN_TRAILING = 4,
    MOA_ALIGN_BOTTOM = 5,
    MOA_ALIGN_FIRST_BASELINE = 6,
    MOA_ALIGN_LAST_BASELINE = 7
} moa_stack_alignment;

/*
** MOA_SPACING_DEFAULT -- "no custom spacing", for moa_stack_set_custom_spacing() (UIKit's
** UIStackView.spacingUseDefault, FLT_MAX): the spacing after the view goes back to the stack's spacing.
*/
#define MOA_SPACING_DEFAULT 3.4028234663852886e+38

/*
** moa_stack_new -- add a stack: a view named `name` under `parent` (0 means the root) whose arranged views
** are laid out along `axis` (UIKit's UIStackView). Its id is a view id: equations place it like any view
** (`toolbar.top == safeArea.top`), and it names the stack in the moa_stack_* calls. The rules it keeps, for a
** horizontal stack (a vertical one swaps the axes; leading and trailing follow the layout direction):
**
**   - the arranged views that are not hidden form a chain from the stack's leading edge to its trailing edge
**     (its layout margins with moa_stack_set_margins_relative());
**   - between neighbours, the spacing, or the custom spacing after the earlier one; EQUAL_SPACING and
**     EQUAL_CENTERING put a spacer guide between them (spacers are named `stack#gapN` and listed only with
**     guides);
**   - FILL_EQUALLY and FILL_PROPORTIONALLY relate the widths;
**   - across the axis, the alignment;
**   - a hidden view leaves the chain: zero width, parked after the previous visible view; its spacing goes
**     with it.
**
** New stacks: distribution FILL, alignment FILL, spacing 0, edges (not margins).
**
** Returns MOA_OK; MOA_MISUSE if L, name or out is NULL; MOA_INVALID if axis is not a moa_axis; as
** moa_view_new() for the name and parent. Swift: `Layout.addStack(_:in:axis:)`.
*/
MOA_API moa_status moa_stack_new(moa_layout *L, const char *name, moa_view parent, moa_axis axis, moa_view *out);

/*
** moa_stack_insert -- arrange view v in the stack at `index` (0 ... the number of other arranged views; -1
** appends): UIKit's insertArrangedSubview / addArrangedSubview. v becomes a subview of the stack first if it
** is not one. A view already arranged moves to `index`.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if stack is not a stack of L or v not a view of L;
** MOA_INVALID for an index out of range, a guide, or the stack itself or one of its ancestors;
** MOA_UNSATISFIABLE (nothing changes). Swift: `StackView.insertArrangedView(_:at:)`.
*/
MOA_API moa_status moa_stack_insert(moa_layout *L, moa_view stack, moa_view v, ptrdiff_t index);

/*
** moa_stack_insert_views -- arrange the n views `views`, in order, at `index` (0 ... the number of arranged
** views not among them; -1 appends) as one change: all of them, or on failure none. The same as n calls of
** moa_stack_insert() with the stack's rules updated once instead of n times: use it to make a stack of
** many views (one call per view costs time in proportion to the stack's length each).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL, or views is NULL with n > 0; MOA_NOTFOUND as moa_stack_insert();
** MOA_INVALID as moa_stack_insert(), or for a view listed twice; MOA_UNSATISFIABLE (nothing changes).
** Swift: `StackView.insertArrangedViews(_:at:)`.
*/
MOA_API moa_status moa_stack_insert_views(moa_layout *L, moa_view stack, const moa_view *views, size_t n,
                                          ptrdiff_t index);

/*
** moa_stack_remove -- take v out of the stack's arranged views (UIKit's removeArrangedSubview): its stack
** constraints go; it stays a subview of the stack (moa_view_free() removes it from the layout; that also takes
** it out of the stack).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if v is not arranged in the stack.
** Swift: `StackView.removeArrangedView(_:)`.
*/
MOA_API moa_status moa_stack_remove(moa_layout *L, moa_view stack, moa_view v);

/*
** moa_stack_views -- the arranged views in order, hidden ones included (see CONVENTIONS, Arrays out).
**
** Returns MOA_OK; MOA_MISUSE if L or count is NULL, or out is NULL with cap > 0; MOA_NOTFOUND if stack is not
** a stack of L. Swift: `StackView.arrangedViews`.
*/
MOA_API moa_status moa_stack_views(moa_layout *L, moa_view stack, moa_view *out, size_t cap, size_t *count);

/*
** moa_stack_set_axis -- arrange the stack's views along `axis`; its constraints follow in one change.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if stack is not a stack of L; MOA_INVALID if axis is not
** a moa_axis; MOA_UNSATISFIABLE (nothing changes). Swift: `StackView.setAxis(_:)`.
*/
MOA_API moa_status moa_stack_set_axis(moa_layout *L, moa_view stack, moa_axis axis);

/*
** moa_stack_set_distribution -- how the stack sizes and spaces its views along the axis.
**
** Returns as moa_stack_set_axis(), MOA_INVALID if d is not a moa_stack_distribution.
** Swift: `StackView.setDistribution(_:)`.
*/
MOA_API moa_status moa_stack_set_distribution(moa_layout *L, moa_view stack, moa_stack_distribution d);

/*
** moa_stack_set_alignment -- how the stack places its views across the axis.
**
** Returns as moa_stack_set_axis(), MOA_INVALID if a is not a moa_stack_alignment.
** Swift: `StackView.setAlignment(_:)`.
*/
MOA_API moa_status moa_stack_set_alignment(moa_layout *L, moa_view stack, moa_stack_alignment a);

/*
** moa_stack_set_spacing -- the gap between neighbours (the minimum for EQUAL_SPACING and EQUAL_CENTERING): any
** finite number within +-1e9; negative spacing overlaps the views, as in UIKit.
**
** Returns as moa_stack_set_axis(), MOA_INVALID for a spacing out of range. Swift: `StackView.setSpacing(_:)`.
*/
MOA_API moa_status moa_stack_set_spacing(moa_layout *L, moa_view stack, double spacing);

/*
** moa_stack_set_margins_relative -- margins_relative != 0 arranges the views within the stack view's layout
** margins, 0 within its edges.
**
** Returns as moa_stack_set_axis(). Swift: `StackView.setLayoutMarginsRelativeArrangement(_:)`.
*/
MOA_API moa_status moa_stack_set_margins_relative(moa_layout *L, moa_view stack, int margins_relative);

/*
** moa_stack_set_custom_spacing -- the spacing after arranged view `after` (UIKit's setCustomSpacing); with
** MOA_SPACING_DEFAULT, back to the stack's spacing.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if `after` is not arranged in the stack; MOA_INVALID
** for an infinite spacing; MOA_UNSATISFIABLE (nothing changes). Swift: `StackView.setCustomSpacing(_:after:)`.
*/
MOA_API moa_status moa_stack_set_custom_spacing(moa_layout *L, moa_view stack, moa_view after, double spacing);

/*
** moa_stack_get -- a stack's properties (axis, distribution and alignment as their enum values); any
** out-pointer may be NULL.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if stack is not a stack of L.
** Swift: `StackView.axis`, `distribution`, `alignment`, `spacing`, `isLayoutMarginsRelativeArrangement`.
*/
MOA_API moa_status moa_stack_get(moa_layout *L, moa_view stack, int *axis, int *distribution, int *alignment,
                                 double *spacing, int *margins_relative);

/*
** moa_stack_set_hidden -- hide (hidden != 0) or show arranged view v. A hidden view leaves the arrangement:
** zero size along the axis, no spacing.
**
** Animated (animated != 0): the view's size and the gaps beside it move over `duration` seconds along `curve`
** on the layout's clock (advance it to see them; hiding again mid-way retargets smoothly); a showing view's
** end size is found by solving the shown layout first. *out (may be NULL) gets the animation's id. Not
** animated: the change is made at once (solve or advance to see it) and *out gets 0, or the id of a
** zero-length animation when `done` is given. `done` (may be NULL) is called once with `ud`: at the end, or
** at the next frame when nothing animates. moa_stack_is_hidden() changes at the call.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if v is not arranged in the stack; MOA_INVALID for a
** bad duration or curve; MOA_UNSATISFIABLE (nothing changes).
** Swift: `StackView.setHidden(_:_:animation:completion:)`.
*/
MOA_API moa_status moa_stack_set_hidden(moa_layout *L, moa_view stack, moa_view v, int hidden, int animated,
                                        double duration, moa_curve curve, moa_done_fn done, void *ud,
                                        moa_animation *out);

/*
** moa_stack_is_hidden -- 1 if v is hidden (or hiding), 0 if not, written to *out.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if v is not arranged in the stack.
** Swift: `StackView.isHidden(_:)`.
*/
MOA_API moa_status moa_stack_is_hidden(moa_layout *L, moa_view stack, moa_view v, int *out);

/*
** moa_chain_style -- how a chain spaces its views (Android ConstraintLayout's chain styles):
**
**   MOA_CHAIN_SPREAD         equal gaps before the first view, between the views and after the last (at least
**                            `gap` between views, 0 at the ends);
**   MOA_CHAIN_SPREAD_INSIDE  the first and last views on the superview's edges, equal gaps between (at least
**                            `gap`);
**   MOA_CHAIN_PACKED         the views `gap` apart, the group between the edges at `bias` (0 start, 0.5
**                            centred, 1 end).
**
** Any other value gives MOA_INVALID. Swift: `ChainStyle` (allCases order).
*/
typedef enum moa_chain_style {
    MOA_CHAIN_SPREAD = 0,
    MOA_CHAIN_SPREAD_INSIDE = 1,
    MOA_CHAIN_PACKED = 2
} moa_chain_style;

/*
** MOA_NO_WEIGHT -- "this view has no weight" in a chain's weights (0).
*/
#define MOA_NO_WEIGHT 0.0

/*
** moa_chain_new -- link n sibling views (one superview) along `axis` between their superview's leading and
** trailing (or top and bottom) edges, in `style`, with `gap` (0 ... 1e9) between neighbours and `bias` (0 ...
** 1, for packed chains). `weights` is NULL or n values: views with a weight (> 0; MOA_NO_WEIGHT for none) share
** the room left along the axis in proportion to their weights, the gaps are then `gap` and the ends on the
** edges (ConstraintLayout's weighted chains); the weighted sizes are tied to a guide the chain owns
** (`chainN#unit`, listed only with guides, like spacers). A view can be in one chain per axis. On success writes
** the chain's id to *out; moa_chain_free() ends it (the views stay).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL, or views is NULL with n > 0; MOA_NOTFOUND for a view not of
** L; MOA_INVALID for no views, views with different superviews, a view repeated or in another chain on the
** axis, a guide, a bad axis, style, gap, bias or weight; MOA_UNSATISFIABLE (nothing changes).
** Swift: `Layout.addChain(_:axis:style:gap:bias:weights:)`.
*/
MOA_API moa_status moa_chain_new(moa_layout *L, const moa_view *views, size_t n, moa_axis axis,
                                 moa_chain_style style, double gap, double bias, const double *weights,
                                 moa_chain *out);

/*
** moa_chain_free -- end a chain: its constraints and spacers go; the views stay (and may be left unplaced).
** The id becomes stale.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if chain is not a chain of L. Swift: `Chain.remove()`.
*/
MOA_API moa_status moa_chain_free(moa_layout *L, moa_chain chain);

/*
** moa_chain_set_style -- change a chain's style.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if chain is not a chain of L; MOA_INVALID if style is not
** a moa_chain_style; MOA_UNSATISFIABLE (nothing changes). Swift: `Chain.setStyle(_:)`.
*/
MOA_API moa_status moa_chain_set_style(moa_layout *L, moa_chain chain, moa_chain_style style);

/*
** moa_chain_set_bias -- where a packed chain's group sits between the edges (0 ... 1).
**
** Returns as moa_chain_set_style(), MOA_INVALID for a bias out of range. Swift: `Chain.setBias(_:)`.
*/
MOA_API moa_status moa_chain_set_bias(moa_layout *L, moa_chain chain, double bias);

/*
** moa_chain_set_gap -- the gap between neighbours (0 ... 1e9; the minimum in spread styles).
**
** Returns as moa_chain_set_style(), MOA_INVALID for a gap out of range. Swift: `Chain.setGap(_:)`.
*/
MOA_API moa_status moa_chain_set_gap(moa_layout *L, moa_chain chain, double gap);

/*
** moa_chain_set_weight -- give view v of the chain a weight (positive, finite), or take it away with
** MOA_NO_WEIGHT.
**
** Returns as moa_chain_set_style(), MOA_NOTFOUND if v is not in the chain, MOA_INVALID for a weight that is not
** positive and finite. Swift: `Chain.setWeight(_:of:)`.
*/
MOA_API moa_status moa_chain_set_weight(moa_layout *L, moa_chain chain, moa_view v, double weight);

/*
** moa_barrier_side -- the side of its members a barrier follows. RIGHT, BOTTOM and TRAILING barriers lie at or
** past their members' edges, the others at or before them. Swift: `BarrierSide` (allCases order).
*/
typedef enum moa_barrier_side {
    MOA_SIDE_LEFT = 0,
    MOA_SIDE_RIGHT = 1,
    MOA_SIDE_TOP = 2,
    MOA_SIDE_BOTTOM = 3,
    MOA_SIDE_LEADING = 4,
    MOA_SIDE_TRAILING = 5
} moa_barrier_side;

/*
** moa_barrier_new -- add a barrier (ConstraintLayout's): a guide named `name` in `parent` (0: the first
** member's superview, or the root) of zero thickness, spanning the parent the other way, at the furthest of the
** n members' `side` edges, `margin` further out (past a right, bottom or trailing edge; before a left, top or
** leading one). It is at least every member's edge (required) and pulled onto them at
** the lowest priority (1), so it sits on the furthest one without moving any member; views attached to it
** (`field.leading == labels.trailing + 8`) follow the widest member as sizes and texts change. Its id is a
** view id: equations name it, moa_view_free() removes it.
**
** Returns MOA_OK; MOA_MISUSE if L, name or out is NULL, or views is NULL with n > 0; MOA_NOTFOUND for a member
** not of L; MOA_INVALID for a bad side, margin or member (repeated); as moa_guide_new() for the name.
** Swift: `Layout.addBarrier(_:side:views:margin:in:)`.
*/
MOA_API moa_status moa_barrier_new(moa_layout *L, const char *name, moa_view parent, moa_barrier_side side,
                                   const moa_view *views, size_t n, double margin, moa_view *out);

/*
** moa_barrier_set_views -- replace a barrier's members (n views; the barrier's own guide cannot be one).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL or views is NULL with n > 0; MOA_NOTFOUND if barrier is not a barrier
** of L or a member not a view of L; MOA_INVALID for a repeated member or the barrier itself;
** MOA_UNSATISFIABLE (nothing changes). Swift: `Barrier.setViews(_:)`.
*/
MOA_API moa_status moa_barrier_set_views(moa_layout *L, moa_view barrier, const moa_view *views, size_t n);

/*
** moa_barrier_set_margin -- the barrier's distance beyond its furthest member (finite, within +-1e9).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if barrier is not a barrier of L; MOA_INVALID for a
** margin out of range; MOA_UNSATISFIABLE (nothing changes). Swift: `Barrier.setMargin(_:)`.
*/
MOA_API moa_status moa_barrier_set_margin(moa_layout *L, moa_view barrier, double margin);

/*
** Visual format options (Apple's NSLayoutFormatOptions, same bit values), for moa_layout_vfl(): align every
** neighbouring pair of views of a format on an edge of the other axis, and the direction of horizontal formats
** (leading to trailing by default).
*/
#define MOA_VFL_ALIGN_ALL_LEFT            (1u << 1)
#define MOA_VFL_ALIGN_ALL_RIGHT           (1u << 2)
#define MOA_VFL_ALIGN_ALL_TOP             (1u << 3)
#define MOA_VFL_ALIGN_ALL_BOTTOM          (1u << 4)
#define MOA_VFL_ALIGN_ALL_LEADING         (1u << 5)
#define MOA_VFL_ALIGN_ALL_TRAILING        (1u << 6)
#define MOA_VFL_ALIGN_ALL_CENTER_X        (1u << 9)
#define MOA_VFL_ALIGN_ALL_CENTER_Y        (1u << 10)
#define MOA_VFL_ALIGN_ALL_LAST_BASELINE   (1u << 11)
#define MOA_VFL_ALIGN_ALL_BASELINE        MOA_VFL_ALIGN_ALL_LAST_BASELINE
#define MOA_VFL_ALIGN_ALL_FIRST_BASELINE  (1u << 12)
#define MOA_VFL_DIRECTION_LEFT_TO_RIGHT   (1u << 16)
#define MOA_VFL_DIRECTION_RIGHT_TO_LEFT   (2u << 16)

/*
** moa_layout_vfl -- add the constraints of Auto Layout visual format strings, all or nothing.
**
** `format` holds one format per line (blank lines skipped), in Apple's grammar:
**
**     [H:|V:] [| connection] [view(predicates)] { connection [view(predicates)] } [connection |]
**
** where a connection is nothing (flush), `-` (the standard spacing: 8 between views, 20 to the superview
** `|`) or `-gap-` / `-(predicates)-`, and a predicate is `[== | <= | >=] (number | metric | view) [@priority]`
** (view names only inside a view's brackets: `[b(==a)]` makes b's width equal a's). The views are the layout's
** views by name and must share one superview (`|`). The constraints are equations (re-issuing one updates it,
** as moa_layout_eqs() does); on success lists their ids in the order of the text (see CONVENTIONS, Arrays
** out): sizes, then gaps, then alignments. `names`/`values` are nmetrics metrics; `options` MOA_VFL_* bits
** (moa_layout_vfl_options() reads them from words).
**
** Returns MOA_OK; MOA_MISUSE if L, format or count is NULL, out is NULL with cap > 0, or names/values NULL with
** nmetrics > 0; MOA_PARSE with the line and byte offset of the offending character in moa_layout_error_info()
** (the message draws a caret under it: "expected `)` to close the predicate list"), also for an unknown view
** or metric; MOA_INVALID (views in different superviews, an alignment on the format's own axis, unknown option bits, a
** metric that is not finite); MOA_UNSATISFIABLE. Swift: `Layout.vfl(_:metrics:options:)`.
*/
MOA_API moa_status moa_layout_vfl(moa_layout *L, const char *format, const char *const *names, const double *values,
                                  size_t nmetrics, unsigned options, moa_lcons *out, size_t cap, size_t *count);

/*
** moa_layout_vfl_options -- the MOA_VFL_* bits of option names separated by spaces, commas or `|`
** (`"alignAllTop alignAllBottom"`; Apple's names: alignAllLeft ... alignAllFirstBaseline, alignAllBaseline,
** directionLeadingToTrailing, directionLeftToRight, directionRightToLeft), written to *out.
**
** Returns MOA_OK; MOA_MISUSE if L, words or out is NULL; MOA_INVALID for an unknown name (the message names
** the nearest). Swift: `VisualFormatOptions(parsing:)`.
*/
MOA_API moa_status moa_layout_vfl_options(moa_layout *L, const char *words, unsigned *out);

/* ========================================================================================================== */
/* Motion: collapse, keyboard, pan                                                                            */
/* ========================================================================================================== */

/*
** moa_collapsible_new -- make view v collapsible through constraint c in direction dir.
**
** c's current constant is the shown constant. Collapsing changes c's constant so that the view ends flush
** outside its superview's edge in dir (from where the shown constant puts it, it moves by its distance to that
** edge plus its width for MOA_LEFT/MOA_RIGHT, its height for MOA_UP/MOA_DOWN, as of the last solve: for
** `sidebar.left == 16`, collapsed left is `-width`); showing returns it to the shown constant. On success writes the collapsible's id to *out; free
** it with moa_collapsible_free() (or with the layout).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if v or c is not of L; MOA_INVALID if dir is
** not a moa_collapse_direction, c is not an equation constraint, or c's axis is not dir's.
** Swift: `Layout.collapsible(_:constraint:direction:)`.
*/
MOA_API moa_status moa_collapsible_new(moa_layout *L, moa_view v, moa_lcons c, moa_collapse_direction dir,
                                       moa_collapsible *out);

/*
** moa_collapsible_free -- forget a collapsible (its view and constraint stay as they are); its id becomes
** stale. An animation it started runs on.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if id is not a collapsible of L. Swift: none (ARC).
*/
MOA_API moa_status moa_collapsible_free(moa_layout *L, moa_collapsible id);

/*
** moa_collapsible_set -- collapse (collapsed != 0) or show (collapsed == 0) the view.
**
** Animated (animated != 0): through the clock over `duration` seconds along `curve` (a toggle mid-animation
** retargets smoothly from where the view is); *out (may be NULL) gets the animation's id. Not animated: the
** constant is set at once (a running animation of it stops; solve or advance to see the frames) and *out
** gets 0. Either way `done` (may be NULL) is called once with `ud`: at the animation's end, or at the next
** frame when not animated. moa_collapsible_is_collapsed() changes at the call.
**
** Collapsing first solves the layout if it needs it (where the edge is comes from the frames); that solve stands
** even when the call then fails, as if moa_layout_solve() had been called before it.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if id (or its view or constraint) is not of L;
** MOA_INVALID for a bad duration or curve, or a collapsed constant beyond +-1e9 (frames that far out);
** MOA_UNSATISFIABLE (not animated; nothing changes). Swift: `Collapsible.setCollapsed(_:animated:duration:curve:completion:)`.
*/
MOA_API moa_status moa_collapsible_set(moa_layout *L, moa_collapsible id, int collapsed, int animated,
                                       double duration, moa_curve curve, moa_done_fn done, void *ud,
                                       moa_animation *out);

/*
** moa_collapsible_toggle -- collapse a shown view, show a collapsed one (see moa_collapsible_set()).
**
** Returns as moa_collapsible_set(). Swift: `Collapsible.toggle(animated:duration:curve:completion:)`.
*/
MOA_API moa_status moa_collapsible_toggle(moa_layout *L, moa_collapsible id, int animated, double duration,
                                          moa_curve curve, moa_done_fn done, void *ud, moa_animation *out);

/*
** moa_collapsible_is_collapsed -- 1 after a collapse, 0 after a show (from the call on, while the animation
** runs), written to *out.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if id is not a collapsible of L.
** Swift: `Collapsible.isCollapsed`.
*/
MOA_API moa_status moa_collapsible_is_collapsed(moa_layout *L, moa_collapsible id, int *out);

/*
** moa_layout_show_keyboard -- animate the keyboard guide's height to `height` with the keyboard's own
** duration and curve (UIKit sends both with its keyboard notifications: 0.25 s, MOA_EASE_IN_OUT); constraints
** attached to the guide (`form.bottom == keyboard.top - 8`) follow frame by frame. Calling it again
** mid-animation retargets smoothly. `done`, `ud` and `out` as for moa_lcons_animate().
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_INVALID for a negative or non-finite height or duration, or a
** bad curve. Swift: `Layout.showKeyboard(height:duration:curve:delay:completion:)`.
*/
MOA_API moa_status moa_layout_show_keyboard(moa_layout *L, double height, double duration, moa_curve curve,
                                            moa_done_fn done, void *ud, moa_animation *out);

/*
** moa_layout_hide_keyboard -- animate the keyboard guide's height back to 0 (see moa_layout_show_keyboard()).
**
** Returns as moa_layout_show_keyboard(). Swift: `Layout.hideKeyboard(duration:curve:delay:completion:)`.
*/
MOA_API moa_status moa_layout_hide_keyboard(moa_layout *L, double duration, moa_curve curve, moa_done_fn done,
                                            void *ud, moa_animation *out);

/*
** moa_pan_new -- a pan-gesture driver over n constraints on one axis.
**
** All the constraints move by the same offset from their current constants (the base): constant = base +
** offset. `rest` lists nrest rest positions (offsets) a release snaps to, e.g. {0, -320} for two side-by-side
** 320-wide panels; rest may be NULL when nrest is 0, which means {0}. The constraints and rest positions are
** copied. Defaults: fast swipe above 400 points/s, at most 20 points per event during a fast swipe, drag
** limit half the root's size on the axis, snap 0.3 s with MOA_EASE_IN_OUT (see moa_pan_set_options()). On
** success writes the driver's id to *out; free it with moa_pan_free() (or with the layout).
**
** Returns MOA_OK; MOA_MISUSE if L, cons or out is NULL, or rest is NULL with nrest > 0; MOA_NOTFOUND if a
** constraint is not of L; MOA_INVALID if n is 0 or above 65536, nrest is above 65536, axis is not a
** moa_axis, a constraint is listed twice, is not an equation constraint or not on the axis, or a rest position
** is not finite or beyond ±1e9. Swift: `PanDriver(constraints:axis:restPositions:)`.
*/
MOA_API moa_status moa_pan_new(moa_layout *L, const moa_lcons *cons, size_t n, moa_axis axis, const double *rest,
                               size_t nrest, moa_pan *out);

/*
** moa_pan_free -- forget a pan driver (its constraints stay where they are); its id becomes stale. A snap it
** started runs on and still calls its moa_rest_fn.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if p is not a pan driver of L. Swift: none (ARC).
*/
MOA_API moa_status moa_pan_free(moa_layout *L, moa_pan p);

/*
** moa_pan_began -- the finger went down: a running snap stops where it is (its moa_rest_fn gets finished =
** 0) and a drag starts from the current offset. *accepted (may be NULL) gets 1, or 0 when the event was
** ignored because the driver is disabled or the layout is in an orientation it does not take
** (moa_pan_set_orientations()).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if p (or one of its constraints) is not of L.
** Swift: `PanDriver.began()`.
*/
MOA_API moa_status moa_pan_began(moa_layout *L, moa_pan p, int *accepted);

/*
** moa_pan_changed -- the finger moved: `translation` since moa_pan_began() and the current `velocity`
** (points/s), along the axis, positive right or down.
**
** The offset follows the finger point by point; a fast swipe moves at most the fast-swipe step per event
** towards the finger; the offset never goes further than the drag limit from where the drag began.
** *accepted (may be NULL) gets 1, or 0 when ignored (disabled, or no drag in progress).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if p is not of L; MOA_INVALID for non-finite numbers;
** MOA_UNSATISFIABLE if a required constraint cannot take the new constants (nothing moves).
** Swift: `PanDriver.changed(translation:velocity:)`.
*/
MOA_API moa_status moa_pan_changed(moa_layout *L, moa_pan p, double translation, double velocity, int *accepted);

/*
** moa_pan_ended -- the finger lifted with `velocity` (points/s along the axis): snap to a rest position.
**
** A fast swipe snaps to the next rest position in its direction (or the nearest when there is none that
** way); otherwise the nearest rest position wins (a tie goes the way the drag went). The snap is animated
** (see moa_pan_set_options()); `done` (may be NULL) is called once with the rest position (see
** moa_rest_fn). *target (may be NULL) gets the rest position and *accepted (may be NULL) 1; when the event
** is ignored (disabled, or no drag in progress) *accepted gets 0, *target is not written and done is never
** called.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if p is not of L; MOA_INVALID for a non-finite
** velocity. Swift: `PanDriver.ended(velocity:completion:)`.
*/
MOA_API moa_status moa_pan_ended(moa_layout *L, moa_pan p, double velocity, moa_rest_fn done, void *ud,
                                 double *target, int *accepted);

/*
** moa_pan_cancelled -- the gesture was cancelled: snap back to the rest position nearest to where the drag
** began. done, ud, target and accepted as for moa_pan_ended().
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if p is not of L. Swift: `PanDriver.cancelled(completion:)`.
*/
MOA_API moa_status moa_pan_cancelled(moa_layout *L, moa_pan p, moa_rest_fn done, void *ud, double *target,
                                     int *accepted);

/*
** moa_pan_move -- move to an offset outside a gesture (e.g. a rest position after a rotation), animated
** (animated != 0, with the snap duration and curve) or at once; a drag in progress ends. done (may be NULL)
** is called once (at the next frame when not animated).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if p is not of L; MOA_INVALID for an offset
** not finite or beyond ±1e9; MOA_UNSATISFIABLE (not animated; nothing moves). Swift:
** `PanDriver.move(to:animated:completion:)`.
*/
MOA_API moa_status moa_pan_move(moa_layout *L, moa_pan p, double offset, int animated, moa_rest_fn done,
                                void *ud);

/*
** moa_pan_set_enabled -- gate a driver: while disabled (enabled == 0) every event is ignored; disabling it
** mid-drag ends the drag as a slow release would (without a moa_rest_fn).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if p is not of L. Swift: `PanDriver.isEnabled`.
*/
MOA_API moa_status moa_pan_set_enabled(moa_layout *L, moa_pan p, int enabled);

/*
** moa_pan_set_options -- tune a driver.
**
**   fast_velocity  the speed (points/s, 0 or more) above which a drag is a fast swipe (default 400);
**   fast_step      the most a fast swipe moves per event (points, 0 or more; default 20);
**   drag_limit     how far from its start a drag may go (points, 0 or more), or MOA_AUTO for half the root's
**                  width (horizontal) or height (vertical) at the start of each drag (the default);
**   snap_duration  the snap animation's duration (seconds, 0 ... 1e12; default 0.3);
**   snap_curve     the snap animation's curve (default MOA_EASE_IN_OUT, UIKit's default; a spring that
**                  keeps its velocity starts with the release velocity).
**
** All change, or none.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if p is not of L; MOA_INVALID for a negative (other
** than MOA_AUTO for drag_limit) or non-finite number, or an unknown curve.
** Swift: `PanDriver.fastSwipeVelocity`, `.fastSwipeStep`, `.dragLimit`, `.snapDuration`, `.snapCurve`.
*/
MOA_API moa_status moa_pan_set_options(moa_layout *L, moa_pan p, double fast_velocity, double fast_step,
                                       double drag_limit, double snap_duration, moa_curve snap_curve);

/*
** moa_pan_options -- a driver's options as moa_pan_set_options() takes them (the defaults until set), so a
** binding can change one and pass the others back. Any out-pointer may be NULL to skip it. drag_limit is
** MOA_AUTO when automatic; a curve made with moa_layout_spring_curve() / moa_layout_bezier_curve() comes back
** as the value those returned.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if p is not of L; MOA_INVALID if the curve cannot get
** a value (the layout's custom curves are all used). Swift: the `PanDriver` properties.
*/
MOA_API moa_status moa_pan_options(moa_layout *L, moa_pan p, double *fast_velocity, double *fast_step,
                                   double *drag_limit, double *snap_duration, moa_curve *snap_curve);

/*
** moa_pan_set_orientations -- the orientations (MOA_PORTRAIT, MOA_LANDSCAPE, or both: MOA_ANY_ORIENTATION, the
** default) in which a driver takes events; in any other, events are ignored as when disabled (the calculator's
** pan works in portrait only, where one panel shows at a time). A drag in progress when the layout rotates
** out of them ends, as a slow release, at its next event.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_NOTFOUND if p is not of L; MOA_INVALID if orientations is not
** 1, 2 or 3. Swift: `PanDriver.orientations`.
*/
MOA_API moa_status moa_pan_set_orientations(moa_layout *L, moa_pan p, int orientations);

/*
** moa_pan_set_rest_positions -- replace a driver's rest positions (n of them, at least one, finite, copied).
**
** Returns MOA_OK; MOA_MISUSE if L or rest is NULL; MOA_NOTFOUND if p is not of L; MOA_INVALID if n is 0 or
** above 65536, or a position is not finite or beyond ±1e9. Swift: `PanDriver.restPositions`.
*/
MOA_API moa_status moa_pan_set_rest_positions(moa_layout *L, moa_pan p, const double *rest, size_t n);

/*
** moa_pan_offset -- a driver's current offset (its first constraint's constant minus its base).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if p (or its first constraint) is not of L.
** Swift: `PanDriver.offset`.
*/
MOA_API moa_status moa_pan_offset(moa_layout *L, moa_pan p, double *out);

/*
** moa_pan_rest_position -- the rest position a driver last reached (initially the one nearest 0).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOTFOUND if p is not of L.
** Swift: `PanDriver.restPosition`.
*/
MOA_API moa_status moa_pan_rest_position(moa_layout *L, moa_pan p, double *out);

/* ========================================================================================================== */
/* Motion: frame traces                                                                                       */
/* ========================================================================================================== */

/*
** moa_layout_trace_start -- start recording frames: the current frames and those of every following frame
** (moa_layout_advance(), moa_layout_seek()), with the guides when include_guides != 0. Starting again
** discards what was recorded.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_CALLBACK and MOA_LIMIT as moa_layout_solve() (the first frame
** is recorded from a solved layout; nothing is recorded then). Swift: `Animator.startRecording(includeGuides:)`.
*/
MOA_API moa_status moa_layout_trace_start(moa_layout *L, int include_guides);

/*
** moa_layout_trace_stop -- stop recording. What was recorded stays readable by the trace functions below
** until the next moa_layout_trace_start().
**
** Returns MOA_OK; MOA_MISUSE if L is NULL. Swift: `Animator.stopRecording()`.
*/
MOA_API moa_status moa_layout_trace_stop(moa_layout *L);

/*
** moa_layout_trace_csv -- the trace (recorded so far, or up to moa_layout_trace_stop()) as CSV: the header
** line `time,view,superview,x,y,width,height,rootX,rootY`, then one line per view per frame; x, y, width,
** height are the frame in the superview, rootX, rootY the origin in root space; numbers with up to 3
** decimals (times 6). With nothing recorded, only the header line.
**
** On success *out points to a NUL-terminated string owned by the layout (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOMEM. Swift: `FrameTrace.csv(decimals:)`.
*/
MOA_API moa_status moa_layout_trace_csv(moa_layout *L, const char **out);

/*
** moa_layout_trace_json -- the trace as JSON: {"frames":[{"time":t,"views":[{"name":..., "superview":...,
** "frame":{"x":..,"y":..,"width":..,"height":..},"rootFrame":{...}}, ...]}, ...]}, one frame per line.
**
** On success *out points to a NUL-terminated string owned by the layout (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_NOMEM. Swift: `FrameTrace.json(decimals:)`.
*/
MOA_API moa_status moa_layout_trace_json(moa_layout *L, const char **out);

/*
** moa_layout_trace_svg_strip -- the trace as one SVG picture: its frames side by side, each labelled with
** its time, all at the same scale. With max_frames > 0 and more frames recorded, max_frames of them are
** drawn, evenly spaced, first and last included (max_frames 0: all). `flags` as for moa_layout_svg() (without
** MOA_SVG_CONSTRAINTS).
**
** On success *out points to a NUL-terminated string owned by the layout (see CONVENTIONS).
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_INVALID for unknown flags or max_frames above 100000;
** MOA_NOMEM. Swift: `FrameTrace.stripSVG(_:)`.
*/
MOA_API moa_status moa_layout_trace_svg_strip(moa_layout *L, size_t max_frames, int flags, const char **out);

/* ========================================================================================================== */
/* Limits and progress                                                                                        */
/* ========================================================================================================== */

/*
** Limits bound the work and memory a host lets one solver or layout take (SQLite's sqlite3_limit and progress
** handler are the model). A call that would go past a limit fails with MOA_LIMIT and changes nothing.
**
**   MOA_LIMIT_ROWS     rows of the tableau (about one per active constraint). Default 10,000,000.
**   MOA_LIMIT_CELLS    cells of the tableau (a cell is a coefficient of a row: 24 bytes with its column entry;
**                      they are the bulk of a solver's memory). Default 100,000,000 (about 2.4 GB).
**   MOA_LIMIT_SECONDS  wall-clock seconds one call may take; 0 is none. Default 0. A solver: each call that
**                      can pivot (an add, a removal, a constant change, a suggestion, a priority change, ...).
**                      A layout: each call while it adds constraints (an eqs block, a view's intrinsic sizes,
**                      an arrangement's rebuild), including the solver work inside it.
**   MOA_LIMIT_PIVOTS   pivots (simplex steps) one solver call may make; for a layout, each solver operation
**                      one of its calls makes. Default 10,000,000 (a layout's operations make a few each;
**                      rebuilding a 100,000-view layout's tableau about 60,000).
**
** How they hold. Rows and cells are checked before every constraint goes into the solver (an add, an
** activation, an edit variable, each equation of a layout call): when the tableau is at the limit the add
** fails. One add may take the tableau past the limit by what it fills in, so memory stays within the limit
** plus one add's fill-in (in a layout, one equation's); the next add fails. Pivots and time are checked inside
** the solver before every pivot (the clock every 64 pivots): a call that reaches its limit stops there and
** undoes what it did (a constraint half added is taken out again, a constant change is rolled back), so it
** changes nothing but the time it took. A layout also checks its time and the progress callback between the
** constraints a call adds (every 64 of them for the time, every `interval` for the callback); the layout then
** undoes everything the call did. Undoing is never limited. Removals are not counted against rows and cells
** (they free them). A solver with a pivots limit below the default or a time limit (and a layout with a time
** limit) optimises after every add instead of leaving a run of adds' optimisation to the next update, so that
** the work falls in a call that can fail; moa_solver_update() and value reads are never limited, nor is
** moa_layout_solve() but for the constraints that measured content adds (their sizes). Memory that cannot be allocated at all cannot be caught in Swift (the process stops): the cell limit
** is what keeps a pathological system (the same 100k constraints in an unlucky order once took 11 GB) from
** getting there. moa_solver_usage() and moa_layout_usage() report what is in use.
**
** Limits are per solver or layout; a layout's rows and cells are those of its own solver.
*/
typedef int moa_limit;
#define MOA_LIMIT_ROWS    0
#define MOA_LIMIT_CELLS   1
#define MOA_LIMIT_SECONDS 2
#define MOA_LIMIT_PIVOTS  3

/* What a solver or layout has in use (moa_solver_usage(), moa_layout_usage()). */
typedef struct moa_usage {
    size_t rows;        /* tableau rows */
    size_t cells;       /* tableau cells */
    size_t variables;   /* live variables (a layout: 4 per view and guide, plus its own) */
    size_t constraints; /* live constraints (a layout: every layout constraint, active or not) */
    size_t views;       /* a layout's views and guides, the root included; 0 for a solver */
} moa_usage;

/*
** moa_solver_set_limit -- set limit `which` to `value`: MOA_LIMIT_ROWS, MOA_LIMIT_CELLS and MOA_LIMIT_PIVOTS
** a whole number >= 1, MOA_LIMIT_SECONDS >= 0 and finite (0 is none). It applies from the next call.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL; MOA_INVALID for an unknown limit or a value out of range (a count
** that is not a whole number in [1, 2^53]). Swift: `Solver.limits`.
*/
MOA_API moa_status moa_solver_set_limit(moa_solver *s, moa_limit which, double value);

/*
** moa_solver_limit -- the current value of limit `which` (MOA_LIMIT_ROWS, MOA_LIMIT_CELLS, MOA_LIMIT_SECONDS or
** MOA_LIMIT_PIVOTS) into *out.
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL; MOA_INVALID for an unknown limit. Swift: `Solver.limits`.
*/
MOA_API moa_status moa_solver_limit(moa_solver *s, moa_limit which, double *out);

/*
** moa_solver_usage -- what the solver has in use, into *out (views is 0).
**
** Returns MOA_OK; MOA_MISUSE if s or out is NULL. Swift: `Solver.usage`.
*/
MOA_API moa_status moa_solver_usage(moa_solver *s, moa_usage *out);

/*
** moa_solver_progress_fn -- called every `every` pivots (moa_solver_set_progress) inside one solver call that
** pivots that much (an add whose optimisation moves many variables, a removal, a suggestion), with the pivots
** the call has made so far. Return 0 to go on, nonzero to stop the call: it then fails with MOA_LIMIT and the
** solver is left as it was before the call. It runs with the solver half way through a change: every call on
** this solver fails with MOA_MISUSE from it, except moa_solver_free, which waits for the call to return. It
** may do anything else (check a deadline or a cancel flag, update a progress bar).
*/
typedef int (*moa_solver_progress_fn)(moa_solver *s, uint64_t pivots, void *ud);

/*
** moa_solver_set_progress -- call `fn` with `ud` every `every` pivots (>= 1) inside one call (see
** moa_solver_progress_fn); fn NULL removes it (every is then ignored). While one is set, adds are journaled and
** never deferred (as under a pivot or time limit), so that a stopped call can be undone.
**
** Returns MOA_OK; MOA_MISUSE if s is NULL or when called from the progress function; MOA_INVALID if every is 0.
** Swift: `Solver.setProgressCheck(every:_:)`.
*/
MOA_API moa_status moa_solver_set_progress(moa_solver *s, moa_solver_progress_fn fn, uint64_t every, void *ud);

/*
** moa_layout_set_limit -- set limit `which` of the layout: MOA_LIMIT_ROWS, MOA_LIMIT_CELLS and
** MOA_LIMIT_PIVOTS (a whole number >= 1, for the layout's solver) or MOA_LIMIT_SECONDS (>= 0, finite; 0 is
** none).
**
** Returns MOA_OK; MOA_MISUSE if L is NULL; MOA_INVALID for an unknown limit or a value out of range.
** Swift: `Layout.setLimits(_:)`.
*/
MOA_API moa_status moa_layout_set_limit(moa_layout *L, moa_limit which, double value);

/*
** moa_layout_limit -- the current value of limit `which` (MOA_LIMIT_ROWS, MOA_LIMIT_CELLS, MOA_LIMIT_SECONDS or
** MOA_LIMIT_PIVOTS) into *out.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL; MOA_INVALID for an unknown limit. Swift: `Layout.limits`.
*/
MOA_API moa_status moa_layout_limit(moa_layout *L, moa_limit which, double *out);

/*
** moa_layout_usage -- what the layout has in use, into *out.
**
** Returns MOA_OK; MOA_MISUSE if L or out is NULL. Swift: `Layout.usage`.
*/
MOA_API moa_status moa_layout_usage(moa_layout *L, moa_usage *out);

/*
** moa_progress_fn -- called during long layout calls with the number of constraints the call has added so
** far (`steps`): every `interval` constraints (moa_layout_set_progress), and every 256 pivots inside one
** solver operation of any call (a single equation whose optimisation moves many views, a removal). Return 0
** to go on, nonzero to stop the call: it then fails with MOA_LIMIT and the layout is left as it was before the
** call. The callback must not change or solve this layout (those calls fail with MOA_MISUSE); between
** constraints reads work but see the call half done (constraints not yet added show as inactive); inside a
** solver operation every call on this layout fails with MOA_MISUSE (the solver is half way through a change).
** It may free the layout (the free waits for the call to return, see Callbacks) and do anything else (update
** a progress bar, check a deadline). The count starts again with every top-level call.
*/
typedef int (*moa_progress_fn)(moa_layout *L, uint64_t steps, void *ud);

/*
** moa_layout_set_progress -- call `fn` with `ud` every `interval` constraints (>= 1) a layout call adds, and
** every 256 pivots inside one solver operation (see moa_progress_fn); fn NULL removes the callback (interval
** is then ignored). While a callback is set, the layout's solver journals every add and never defers an
** optimisation (as under a pivot or time limit), so that a stopped call can be undone: builds are somewhat
** slower.
**
** Returns MOA_OK; MOA_MISUSE if L is NULL or when called from the progress callback itself; MOA_INVALID if
** interval is 0. Swift: `Layout.setProgressHandler(every:_:)`.
*/
MOA_API moa_status moa_layout_set_progress(moa_layout *L, moa_progress_fn fn, uint64_t interval, void *ud);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MOA_H */
