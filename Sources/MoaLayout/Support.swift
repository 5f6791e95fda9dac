// Moa — small helpers: near-name suggestions and writing to standard error without Foundation.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The optimal-string-alignment distance between `a` and `b` (Levenshtein plus adjacent transpositions), in
/// half edits so it stays an integer: an insertion, deletion, substitution or transposition costs 2, a letter
/// that differs only in case costs 1.
func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
    if x.isEmpty { return 2 * y.count }
    if y.isEmpty { return 2 * x.count }
    func cost(_ p: Unicode.Scalar, _ q: Unicode.Scalar) -> Int {
        if p == q { return 0 }
        return p.properties.lowercaseMapping == q.properties.lowercaseMapping ? 1 : 2
    }
    var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
    for i in 0...x.count { d[i][0] = 2 * i }
    for j in 0...y.count { d[0][j] = 2 * j }
    for i in 1...x.count {
        for j in 1...y.count {
            var v = min(d[i - 1][j] + 2, d[i][j - 1] + 2, d[i - 1][j - 1] + cost(x[i - 1], y[j - 1]))
            if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { v = min(v, d[i - 2][j - 2] + 2) }
            d[i][j] = v
        }
    }
    return d[x.count][y.count]
}

/// The candidate nearest to `name`, if it is near enough to be a likely typo: at most 1 edit for names of up
/// to 4 letters, 2 up to 8, 3 beyond (case-only differences count half). Ties go to the earlier candidate.
/// Names longer than 64 letters get no suggestion: the table is quadratic, and two 10 MB names (hostile input)
/// would need petabytes.
func nearestName(_ name: String, among candidates: [String]) -> String? {
    let n = name.unicodeScalars.count
    guard n <= 64 else { return nil }
    let limit = 2 * (n <= 4 ? 1 : n <= 8 ? 2 : 3)
    var best: (String, Int)?
    for c in candidates where c != name {
        // Each letter of length difference is an insertion or deletion (2 half edits): skip hopeless candidates
        // before the quadratic table (a 10 MB unknown name against a few short names took 40 s).
        if 2 * abs(c.unicodeScalars.count - n) > limit { continue }
        let d = editDistance(name, c)
        if d <= limit, best == nil || d < best!.1 { best = (c, d) }
    }
    return best?.0
}

/// Writes `text` to standard error (file descriptor 2) with `write(2)`: no Foundation, no shared `FILE *`.
func writeToStandardError(_ text: String) {
    var s = text
    s.withUTF8 { buf in
        guard var p = buf.baseAddress else { return }
        var left = buf.count
        while left > 0 {
            let w = write(2, p, left)
            if w <= 0 { return }
            p += w
            left -= w
        }
    }
}

/// Something a layout owns until it is removed (a view, a constraint): `isValid` turns false for good then.
protocol Removable: AnyObject {
    var isValid: Bool { get }
}

/// A layout's objects in creation order, where taking one out costs O(1): a removed object (`isValid` false)
/// stays in place and is skipped until `compact()` drops the removed ones, which callers do only between public
/// calls (an undo inside a failed call may make a removed object valid again, so it must still be here), and
/// only once removals reach half of the list, so the cost per removal stays constant.
struct CreationOrder<Element: Removable> {
    private(set) var all: [Element] = []
    private var removals = 0

    /// Entries, removed ones included until `compact()`.
    var count: Int { all.count }

    /// The live objects, in creation order. O(n).
    var live: [Element] { removals == 0 ? all : all.filter(\.isValid) }

    mutating func append(_ e: Element) { all.append(e) }

    /// Undoes the last `append`.
    mutating func removeLast() { all.removeLast() }

    /// Notes that `n` objects became invalid (an over-count is harmless: it only compacts sooner).
    mutating func noteRemoved(_ n: Int = 1) { removals += n }

    /// Drops removed objects once they are at least half of the list. Call only between public calls.
    mutating func compact() {
        guard removals > 0, 2 * removals >= all.count else { return }
        all.removeAll { !$0.isValid }
        removals = 0
    }
}

/// Objects by a serial number that is never reused (a view's `serial`), in pages of 256 serials. A page is
/// freed once every object in it is gone and no later serial can fall in it, so a layout that makes and removes
/// views for hours holds memory in proportion to its live views (and a page pointer per 256 serials ever given
/// out), not a slot for every view it ever made.
struct SerialTable<Element: AnyObject> {
    private static var pageShift: Int { 8 }
    private static var pageMask: Int { (1 << pageShift) - 1 }
    /// An empty array for a page not made yet or freed.
    private var pages: [[Element?]] = []
    private var liveInPage: [Int32] = []
    /// The objects held.
    private(set) var count = 0

    subscript(serial: Int) -> Element? {
        let p = serial >> Self.pageShift
        guard serial >= 0, p < pages.count, !pages[p].isEmpty else { return nil }
        return pages[p][serial & Self.pageMask]
    }

    mutating func insert(_ e: Element, at serial: Int) {
        guard serial >= 0 else { return }   // serials start at 0
        let p = serial >> Self.pageShift
        // The last page, kept while it was being filled, is freed once a later one starts and it is empty.
        if let l = pages.indices.last, l < p, liveInPage[l] == 0 { pages[l] = [] }
        while pages.count <= p { pages.append([]); liveInPage.append(0) }
        if pages[p].isEmpty { pages[p] = [Element?](repeating: nil, count: 1 << Self.pageShift) }
        if pages[p][serial & Self.pageMask] == nil { liveInPage[p] += 1; count += 1 }
        pages[p][serial & Self.pageMask] = e
    }

    mutating func remove(at serial: Int) {
        let p = serial >> Self.pageShift
        guard serial >= 0, p < pages.count, !pages[p].isEmpty, pages[p][serial & Self.pageMask] != nil else { return }
        pages[p][serial & Self.pageMask] = nil
        liveInPage[p] -= 1
        count -= 1
        // The last page is still being filled: keep it rather than free and make it again for every new view.
        if liveInPage[p] == 0 && p < pages.count - 1 { pages[p] = [] }
    }

    /// Pages allocated now (for tests of the memory bound).
    var allocatedPages: Int { pages.reduce(0) { $0 + ($1.isEmpty ? 0 : 1) } }

    /// The objects held, in increasing serial order.
    var elements: [Element] {
        var out: [Element] = []
        out.reserveCapacity(count)
        forEach { out.append($0) }
        return out
    }

    /// Calls `body` on each object held, in increasing serial order.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for page in pages { for case let e? in page { try body(e) } }
    }
}

extension View: Removable {}
extension LayoutConstraint: Removable {}

