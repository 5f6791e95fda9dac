// moa-fuzz target `parser`: the fuzz input is equation text (any bytes: invalid UTF-8, NULs, long lines) given
// to moa_layout_eqs / moa_layout_eqs_source / moa_layout_eq / moa_layout_xeq on a small screen of views.
//
// Checked:
//   - a failing call changed nothing (equations, constants, priorities, views, frames), and its error info is
//     consistent: the status, a line inside the text, a byte offset and token inside that line, text_offset =
//     the line's start + offset, and the offending line's text;
//   - a successful eqs: every equation constraint prints (moa_lcons_describe) as an equation that parses back
//     to itself: moa_layout_eq(description) returns the same id with the same constant; and the whole
//     moa_layout_describe() text, fed back to moa_layout_eqs, re-issues exactly the same constraints in order;
//   - xeq removes what it says it removed; the solved frames are finite.

import CMoa

/// The views the equations can name (a small screen, as in the README and examples).
private let screen = "header content footer title label button avatar sidebar".split(separator: " ").map(String.init)

private func parserSnapshot(_ L: OpaquePointer) -> String {
    var out = ""
    var text: UnsafePointer<CChar>? = nil
    _ = moa_layout_describe(L, &text)
    out += string(text) ?? "-"
    for c in constraintIDs(L) {
        var k = 0.0, p = 0.0
        _ = moa_lcons_constant(L, c, &k)
        _ = moa_lcons_priority(L, c, &p)
        out += "\(c) \(k) \(p)\n"
    }
    var n = 0
    _ = moa_layout_views(L, nil, 0, &n)
    var views = [moa_view](repeating: 0, count: n)
    if n > 0 { _ = moa_layout_views(L, &views, n, &n) }
    for v in views {
        var r = moa_rect()
        _ = moa_view_frame(L, v, &r)
        out += "\(v) \(r.x) \(r.y) \(r.width) \(r.height)\n"
    }
    return out
}

private func constraintIDs(_ L: OpaquePointer) -> [moa_lcons] {
    var n = 0
    expect(moa_layout_constraints(L, nil, 0, &n) == MOA_OK, "moa_layout_constraints")
    var ids = [moa_lcons](repeating: 0, count: n)
    if n > 0 { expect(moa_layout_constraints(L, &ids, n, &n) == MOA_OK && n == ids.count, "moa_layout_constraints") }
    return ids
}

/// The lines as the layout splits them: on "\n", without one "\r" before it (CRLF text).
private func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { l in
        l.last == 0x0D ? l.dropLast() : l
    }
}

private func checkFailure(_ L: OpaquePointer, _ st: moa_status, _ bytes: [UInt8], firstLine: Int, _ before: String,
                          _ what: String) {
    var info = moa_error_info()
    expect(moa_layout_error_info(L, &info) == MOA_OK, "moa_layout_error_info")
    expect(info.code == st, "\(what): error_info code \(info.code) for status \(st)")
    let kind = String(cString: info.kind)
    expect(!kind.isEmpty && !String(cString: info.message).isEmpty, "\(what): error without kind or message")
    if info.line > 0 {
        // Offsets count the caller's bytes (invalid UTF-8 included); source_line is the line repaired.
        let ls = lines(bytes)
        let index = Int(info.line) - firstLine
        expect(index >= 0 && index < ls.count, "\(what): error on line \(info.line), text has \(ls.count) lines from \(firstLine)")
        let line = ls[ls.startIndex + index]
        if info.offset >= 0 {
            expect(Int(info.offset) <= line.count, "\(what): offset \(info.offset) past a line of \(line.count) bytes")
            // A token may point just past the end ("expected ... at the end of the line").
            expect(info.length >= 0 && Int(info.offset) + Int(info.length) <= max(line.count, Int(info.offset) + 1),
                   "\(what): token \(info.offset)+\(info.length) past a line of \(line.count) bytes")
            if info.text_offset >= 0 {
                expect(Int(info.text_offset) == line.startIndex + Int(info.offset),
                       "\(what): text_offset \(info.text_offset) is not line start \(line.startIndex) + offset \(info.offset)")
            }
        }
        // The offending line, as the layout saw it (invalid UTF-8 repaired).
        let shown = String(cString: info.source_line)
        expect(shown.isEmpty || shown == String(decoding: line, as: UTF8.self), "\(what): source_line `\(shown)` is not line \(info.line)")
    }
    let after = parserSnapshot(L)
    if after != before { violation("\(what) failed with \(st) but changed the layout\n--- before\n\(before)--- after\n\(after)") }
}

func runParser(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    var bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    // C sees the text up to its first NUL.
    if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
    guard let L = moa_layout_new(375, 667) else { violation("moa_layout_new") }
    defer { moa_layout_free(L) }
    _ = moa_layout_set_debug_callback(L, { _, _ in }, nil)
    var parent: moa_view = 0
    for (i, name) in screen.enumerated() {
        var v: moa_view = 0
        // label and button sit inside content, so `view`/`superview` mean different things for them.
        expect(moa_view_new(L, name, i == 4 || i == 5 ? parent : 0, &v) == MOA_OK, "view_new \(name)")
        if name == "content" { parent = v }
    }
    // Some constraints before the fuzzed text, so that updates and xeq have something to find.
    var n = 0
    expect(moa_layout_eqs(L, "header.top == safeArea.top\nheader.height == 44\ncontent.top == header.bottom + 8 @ high\n",
                          nil, 0, &n) == MOA_OK, "setup eqs")

    let before = parserSnapshot(L)
    var ids = [moa_lcons](repeating: 0, count: 4)  // small on purpose: cap < count must still apply everything
    let firstLine = bytes.first.map { Int($0 % 3) + 1 } ?? 1
    let st = withBytesCString(bytes) { text in
        firstLine == 1 ? moa_layout_eqs(L, text, &ids, ids.count, &n)
            : moa_layout_eqs_source(L, text, "fuzz.eqs", Int32(firstLine), &ids, ids.count, &n)
    }
    trace("eqs -> \(st)")
    if st != MOA_OK {
        checkFailure(L, st, bytes, firstLine: firstLine, before, "eqs")
    } else {
        let all = constraintIDs(L)
        for id in ids.prefix(min(n, ids.count)) {
            var k = 0.0
            expect(moa_lcons_constant(L, id, &k) == MOA_OK, "eqs returned an id that is not a constraint: \(id)")
        }
        // Round trip: each printed equation re-issues its own constraint.
        for c in all {
            var text: UnsafePointer<CChar>? = nil
            expect(moa_lcons_describe(L, c, &text) == MOA_OK, "describe \(c)")
            let desc = String(cString: text!)
            var k0 = 0.0, k1 = 0.0
            _ = moa_lcons_constant(L, c, &k0)
            var again: moa_lcons = 0
            let st2 = moa_layout_eq(L, desc, &again)
            expect(st2 == MOA_OK && again == c, "`\(desc)` (constraint \(c)) re-issued gives \(st2), id \(again): "
                + String(cString: moa_layout_errmsg(L)))
            _ = moa_lcons_constant(L, c, &k1)
            expect(k0 == k1 || (k0.isNaN && k1.isNaN), "`\(desc)` re-issued changed the constant \(k0) -> \(k1)")
        }
        // The whole description parses back to the same constraints, in order.
        var text: UnsafePointer<CChar>? = nil
        expect(moa_layout_describe(L, &text) == MOA_OK, "moa_layout_describe")
        let whole = String(cString: text!)
        var back = [moa_lcons](repeating: 0, count: all.count + 1)
        var m = 0
        let st3 = moa_layout_eqs(L, whole, &back, back.count, &m)
        expect(st3 == MOA_OK && Array(back.prefix(m)) == all,
               "moa_layout_describe() fed to eqs gives \(st3), \(back.prefix(m)) instead of \(all)\n\(whole)")
        expect(constraintIDs(L) == all, "re-issuing the description added constraints")
    }

    // The first line alone through eq and xeq.
    let first = Array(lines(bytes).first ?? [])
    let snap = parserSnapshot(L)
    var id: moa_lcons = 0
    let st4 = withBytesCString(first) { moa_layout_eq(L, $0, &id) }
    trace("eq first line -> \(st4)")
    if st4 != MOA_OK { checkFailure(L, st4, first, firstLine: 1, snap, "eq") }
    let countBefore = constraintIDs(L).count
    let snap2 = parserSnapshot(L)
    var removed = 0
    let st5 = withBytesCString(first) { moa_layout_xeq(L, $0, &removed) }
    trace("xeq first line -> \(st5)")
    if st5 != MOA_OK { checkFailure(L, st5, first, firstLine: 1, snap2, "xeq") }
    else {
        expect(removed >= 1 && constraintIDs(L).count == countBefore - removed, "xeq removed \(removed) of \(countBefore)")
    }
    // Several lines are refused by eq, and nothing changes.
    if lines(bytes).filter({ !$0.allSatisfy { $0 == 32 || $0 == 9 || $0 == 13 } }).count > 1 {
        let snap3 = parserSnapshot(L)
        let st6 = withBytesCString(bytes) { moa_layout_eq(L, $0, &id) }
        if st6 != MOA_OK { checkFailure(L, st6, bytes, firstLine: 1, snap3, "eq(many lines)") }
    }

    var frames = [moa_frame](repeating: moa_frame(), count: 16)
    expect(moa_layout_frames(L, 1, &frames, frames.count, &n) == MOA_OK, "moa_layout_frames")
    for f in frames.prefix(min(n, frames.count)) {
        let r = f.frame_in_root
        expect(r.x.isFinite && r.y.isFinite && r.width.isFinite && r.height.isFinite, "a frame is not finite: \(r)")
    }
}
