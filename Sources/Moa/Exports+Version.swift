// Moa — C ABI: the version, status-code names and priority names (no solver involved). Each comes from its one
// Swift source (`MoaVersion`, `Priority.names`); the bindings read them from here rather than keeping copies.

import MoaSolver

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Version (Include/moa.h repeats it as MOA_VERSION / MOA_VERSION_NUMBER; MoaCTests checks they agree)

@_cdecl("moa_libversion")
public func moa_libversion() -> UnsafePointer<CChar>? {
    cString(MoaVersion.string)
}

@_cdecl("moa_libversion_number")
public func moa_libversion_number() -> Int32 {
    Int32(MoaVersion.number)
}

// MARK: - Status names

/// Each status code's short name and English message, by code (MOA_OK ... MOA_LIMIT).
private let statusTexts: [(name: StaticString, message: StaticString)] = [
    ("OK", "not an error"),
    ("ERROR", "generic or internal error"),
    ("MISUSE", "library misuse (NULL handle or pointer, or wrong state)"),
    ("NOMEM", "out of memory"),
    ("INVALID", "invalid argument"),
    ("NOTFOUND", "unknown or stale id, or not an edit variable"),
    ("DUPLICATE", "already active or already an edit variable"),
    ("UNSATISFIABLE", "unsatisfiable required constraint"),
    ("PARSE", "parse error"),
    ("CALLBACK", "a callback failed, or measured content did not settle"),
    ("LIMIT", "a limit was reached, or a progress callback stopped the call"),
]

@_cdecl("moa_errstr")
public func moa_errstr(_ status: Int32) -> UnsafePointer<CChar>? {
    guard status >= 0, Int(status) < statusTexts.count else { return cString("unknown status code") }
    return cString(statusTexts[Int(status)].message)
}

@_cdecl("moa_status_name")
public func moa_status_name(_ status: Int32) -> UnsafePointer<CChar>? {
    guard status >= 0, Int(status) < statusTexts.count else { return cString("UNKNOWN") }
    return cString(statusTexts[Int(status)].name)
}

// MARK: - Priority names

/// `Priority.names` as C strings, made once (a lazy global: thread-safe) and never written or freed after.
nonisolated(unsafe) private let priorityCNames: [UnsafeMutablePointer<CChar>?] = Priority.names.map { strdup($0.name) }

@_cdecl("moa_priority_value")
public func moa_priority_value(_ name: UnsafePointer<CChar>?, _ value: UnsafeMutablePointer<Double>?) -> Int32 {
    guard let name, let value else { return Status.misuse }
    guard let v = Priority.value(named: String(cString: name)) else { return Status.notFound }
    value.pointee = v
    return Status.ok
}

@_cdecl("moa_priority_name")
public func moa_priority_name(_ index: Int32, _ value: UnsafeMutablePointer<Double>?) -> UnsafePointer<CChar>? {
    guard index >= 0, Int(index) < Priority.names.count, let name = priorityCNames[Int(index)] else { return nil }
    value?.pointee = Priority.names[Int(index)].value
    return UnsafePointer(name)
}
