// Moa — C ABI: version and status-code names (no solver involved).

// MARK: - Version (must match MOA_VERSION / MOA_VERSION_NUMBER in Include/moa.h)

@_cdecl("moa_libversion")
public func moa_libversion() -> UnsafePointer<CChar>? {
    cString("0.1.0")
}

@_cdecl("moa_libversion_number")
public func moa_libversion_number() -> Int32 {
    0 * 1_000_000 + 1 * 1_000 + 0
}

// MARK: - Status names

@_cdecl("moa_errstr")
public func moa_errstr(_ status: Int32) -> UnsafePointer<CChar>? {
    switch status {
    case Status.ok: return cString("not an error")
    case Status.error: return cString("generic or internal error")
    case Status.misuse: return cString("library misuse (NULL handle or pointer, or wrong state)")
    case Status.nomem: return cString("out of memory")
    case Status.invalid: return cString("invalid argument")
    case Status.notFound: return cString("unknown or stale id, or not an edit variable")
    case Status.duplicate: return cString("already active or already an edit variable")
    case Status.unsatisfiable: return cString("unsatisfiable required constraint")
    case Status.parse: return cString("parse error")
    default: return cString("unknown status code")
    }
}
