// Moa — C ABI toolkit: the error record of a box (`moa_solver *`, `moa_layout *`).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The outcome of the last call on one box, kept in C memory until the next call: its status, its message
/// (`moa_solver_errmsg`, `moa_layout_errmsg`), the details `moa_layout_error_info` reads and the conflicts of
/// a MOA_UNSATISFIABLE. Recording a failure never fails: without memory it falls back to static messages.
final class ErrorRecord {
    private(set) var status: Int32 = Status.ok
    private(set) var line: Int32 = 0
    private(set) var offset: Int32 = -1
    private(set) var textOffset: Int32 = -1
    private(set) var length: Int32 = 0
    /// kind, message, source line, expected, suggestion, source (malloc'd; nil means "").
    private(set) var infoStrings: [UnsafeMutablePointer<CChar>?] = Array(repeating: nil, count: 6)
    private var message: UnsafeMutablePointer<CChar>?
    private var staticMessage: UnsafePointer<CChar>?
    /// The conflicts of the last MOA_UNSATISFIABLE, as C ids.
    private(set) var conflicts: [UInt64] = []
    /// The indexes of a failed batch's items in the conflict of the last MOA_UNSATISFIABLE (`moa_solver_add_many`).
    private(set) var batchConflicts: [Int] = []

    deinit {
        free(message)
        for p in infoStrings { free(p) }
    }

    /// The message: "not an error" after a success.
    var text: UnsafePointer<CChar> {
        if let message { return UnsafePointer(message) }
        return staticMessage ?? cString("not an error")
    }

    /// Records a success. Cheap when there was nothing to clear.
    @inline(__always)
    func succeeded() {
        if status != Status.ok || message != nil || staticMessage != nil || !conflicts.isEmpty || !batchConflicts.isEmpty {
            clear()
        }
    }

    private func clear() {
        status = Status.ok
        line = 0; offset = -1; textOffset = -1; length = 0
        for i in infoStrings.indices {
            free(infoStrings[i])
            infoStrings[i] = nil
        }
        free(message)
        message = nil
        staticMessage = nil
        conflicts.removeAll()
        batchConflicts.removeAll()
    }

    /// Records a failure and returns its status: the full message, the `moa_error_info` strings (kind, message,
    /// source line, expected, suggestion, source; missing ones are ""), where it happened in equation text, and
    /// the conflicting constraints' C ids.
    func failed(_ status: Int32, _ full: String, info: [String] = [],
                position: (line: Int32, offset: Int32, textOffset: Int32, length: Int32)? = nil,
                conflicts: [UInt64] = [], batchConflicts: [Int] = []) -> Int32 {
        clear()
        self.status = status
        if let position {
            line = position.line; offset = position.offset; textOffset = position.textOffset; length = position.length
        }
        self.conflicts = conflicts
        self.batchConflicts = batchConflicts
        for (i, s) in info.prefix(infoStrings.count).enumerated() where !s.isEmpty {
            infoStrings[i] = mallocCString(s)
        }
        message = mallocCString(full)
        if message == nil { staticMessage = cString("out of memory (while recording an error)") }
        return status
    }

    /// Records a failure that is not the engine's: a `BoundaryFailure`, or an error of an unexpected type.
    func failed(other error: any Error) -> Int32 {
        guard let e = error as? BoundaryFailure else {
            let m = "internal error: unexpected error type"
            return failed(Status.error, m, info: ["internalError", m])
        }
        if e.status == Status.nomem {
            clear()
            status = Status.nomem
            staticMessage = cString("out of memory")
            return status
        }
        return failed(e.status, e.message, info: [e.kind, e.message])
    }
}

/// A malloc'd, NUL-terminated copy of `string`, or nil when malloc fails.
func mallocCString(_ string: String) -> UnsafeMutablePointer<CChar>? {
    var string = string
    return string.withUTF8 { bytes -> UnsafeMutablePointer<CChar>? in
        guard let raw = malloc(bytes.count + 1) else { return nil }
        if let base = bytes.baseAddress { memcpy(raw, base, bytes.count) }
        let p = raw.assumingMemoryBound(to: CChar.self)
        p[bytes.count] = 0
        return p
    }
}

/// The string a box last handed out through a `const char **out`: valid until the next such call on the box.
final class TextSlot {
    private var text: UnsafeMutablePointer<CChar>?

    deinit { free(text) }

    /// Copies `string` into the slot (freeing the previous one) and returns it.
    func keep(_ string: String) throws(BoundaryFailure) -> UnsafePointer<CChar> {
        guard let copy = mallocCString(string) else { throw .outOfMemory }
        free(text)
        text = copy
        return UnsafePointer(copy)
    }

    /// Frees the string.
    func clear() {
        free(text)
        text = nil
    }
}
