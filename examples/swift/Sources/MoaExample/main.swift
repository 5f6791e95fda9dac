// A sidebar beside its content, laid out with equations; then the sidebar collapses on a clock this program
// advances. Prints the frames (x, y, width, height) relative to the superview.
import MoaLayout
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

do {
    let layout = try Layout(width: 320, height: 480)
    let sidebar = try layout.addView("sidebar")
    let content = try layout.addView("content")
    let constraints = try layout.eqs("""
        sidebar.left == 0
        sidebar.top == 0
        sidebar.bottom == 0
        sidebar.width == 200
        content.left == sidebar.right
        content.right == 0
        content.top == 0
        content.bottom == 0
        """)
    try layout.solve()
    print("sidebar", sidebar.frame, "content", content.frame)

    // A typo is an error with a line, an offset and a suggestion, not a crash.
    do {
        _ = try layout.eq("sidebar.widht == 180")
    } catch {
        print("error:", error.message, "at line", error.line ?? 0)
    }

    let collapsible = try layout.collapsible(sidebar, constraint: constraints[0], direction: .left)
    try collapsible.toggle(duration: 0.3, curve: .easeInOut) { finished in print("collapsed:", finished) }
    for _ in 0..<2 {
        try layout.animator.advance(by: 0.15)
        print("t =", layout.animator.time, "sidebar", sidebar.frame, "content", content.frame)
    }
} catch {
    print("moa:", error)
    exit(1)
}
