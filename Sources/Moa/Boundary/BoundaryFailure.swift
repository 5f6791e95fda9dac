// Moa — C ABI toolkit: the failures the C layer finds itself.

/// A failure the C layer finds itself, beside the engines' own errors (`SolverError`, `LayoutError`): a NULL
/// pointer, a bad enum value or count, an unknown id, a broken callback rule, or no memory for a result.
struct BoundaryFailure: Error {
    let status: Int32
    /// The `moa_error_info.kind` of the failure ("misuse", "invalid", "notFound", "outOfMemory").
    let kind: String
    let message: String

    static func misuse(_ m: String) -> BoundaryFailure { .init(status: Status.misuse, kind: "misuse", message: m) }
    static func invalid(_ m: String) -> BoundaryFailure { .init(status: Status.invalid, kind: "invalid", message: m) }
    static func notFound(_ m: String) -> BoundaryFailure { .init(status: Status.notFound, kind: "notFound", message: m) }
    /// malloc failed for a string handed to C.
    static let outOfMemory = BoundaryFailure(status: Status.nomem, kind: "outOfMemory", message: "out of memory")
}
