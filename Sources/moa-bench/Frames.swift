// moa-bench --frames: time per animation frame of a layout built from equations (issue: motion benchmark).
//
//     moa-bench --frames N [-r REPS] [--bulk]
//
// A screen of N views: a sidebar beside a content column of N-3 rows, each row chained under the one above with
// a label of intrinsic size, and a badge pinned to the content's top right. Each case animates constants with
// an ease-in-out curve over 60 frames of 1/60 s; a frame is `advance` (interpolated constants set in place,
// incremental re-solve, the changed views listed) and reading the changed views' frames. Output in the .lin
// driver's format (../shared/bench/bench.py's `run_once` reads it), per frame:
//
//     phase build ns=T ops=N rep=R      views and `eqs`, first solve
//     phase all ns=T ops=60 rep=R       one constant (the sidebar's collapse): every view moves
//     phase eight ns=T ops=60 rep=R     eight row gaps at once: the rows below the first one move
//     phase one ns=T ops=60 rep=R       one constant (the badge's top): one view moves
//     total ns=T rep=R
//     u K n=V sum=S hash=H              K = 0, 1, 2 after each case: checksum of every frame in root space
//
// --bulk makes the rows and their intrinsic sizes in one `addViews` call (as the Python and Lua frames scripts
// do) instead of a call per view: the same system.
//
// The kiwi driver's counterpart of `all` is the `edit` phase of the `animate` workloads (600 frames of 3
// suggestions).

import MoaLayout

/// The screen, its collapse constraint, eight row gaps and the badge's top.
func buildScreen(_ n: Int, bulk: Bool = false) throws -> (Layout, LayoutConstraint, [LayoutConstraint], LayoutConstraint) {
    let layout = Layout()
    try layout.setRootSize(width: 1024, height: 768)
    let sidebar = try layout.addView("sidebar")
    let content = try layout.addView("content")
    try layout.addView("badge", in: content)
    var text = """
        sidebar.left == 0
        sidebar.top == 0
        sidebar.bottom == 0
        sidebar.width == 240
        content.left == sidebar.right
        content.right == 0
        content.top == 0
        badge.top == content.top + 8
        badge.right == content.right - 8
        badge.width == 24
        badge.height == 24

        """
    let rows = max(1, n - 3)
    var gaps: [Int] = []
    var lines = 11
    if bulk {
        try layout.addViews((0 ..< rows).map { "row\($0)" }, in: content,
                            intrinsicSizes: (0 ..< rows).map { (Double(80 + $0 % 7 * 10), 20) })
    }
    for i in 0 ..< rows {
        if !bulk {
            let row = try layout.addView("row\(i)", in: content)
            try row.setIntrinsicSize(width: Double(80 + i % 7 * 10), height: 20)
        }
        text += "row\(i).left == content.left + 16\n"
        text += i == 0 ? "row0.top == content.top + 8\n" : "row\(i).top == row\(i - 1).bottom + 4\n"
        lines += 2
        if i > 0 { gaps.append(lines - 1) }
    }
    text += "content.bottom >= row\(rows - 1).bottom + 8\n"
    let cs = try layout.eqs(text)
    let collapse = cs[0]
    let chosen = stride(from: 0, to: gaps.count, by: max(1, gaps.count / 8)).prefix(8).map { cs[gaps[$0]] }
    return (layout, collapse, Array(chosen), cs[7])
}

func runFrames(_ n: Int, reps: Int, bulk: Bool) -> Int32 {
    var out = Out()
    var sums: [Checksum] = []
    var nvalues = 0
    var lines: [String] = []
    for r in 0 ..< reps {
        do {
            var t0 = nowNS()
            let (layout, collapse, gaps, badge) = try buildScreen(n, bulk: bulk)
            _ = try layout.solve()
            lines.append("phase build ns=\(nowNS() - t0) ops=\(n) rep=\(r)")
            var total = nowNS() - t0
            let cases = [("all", [(collapse, -240.0)]), ("eight", gaps.map { ($0, $0.constant + 12) }),
                         ("one", [(badge, 200.0)])]
            for (name, targets) in cases {
                let animator = layout.animator
                // The previous case's animations end first, untimed: 60 steps of 1/60 s add up to a hair under
                // its 1 s, and its last step would otherwise land in this case's first frame.
                while animator.isAnimating { _ = try animator.advance(by: 1.0 / 60) }
                for (c, to) in targets { _ = try animator.animate(c, to: to, duration: 1.0, curve: .easeInOut) }
                var read = 0.0
                t0 = nowNS()
                for _ in 0 ..< 60 {
                    for v in try animator.advance(by: 1.0 / 60) { read += v.frameInRoot.x + v.frameInRoot.height }
                }
                let ns = nowNS() - t0
                total += ns
                lines.append("phase \(name) ns=\(ns / 60) ops=60 rep=\(r)")
                if r == 0 { sums.append(frameChecksum(layout)); nvalues = 4 * (layout.views.count + 1) }
                if read.isNaN { lines.append("warning: a frame read NaN") }
            }
            lines.append("total ns=\(total) rep=\(r)")
        } catch {
            out.flush()
            eprint("moa error: \(error)")
            return 3
        }
    }
    out.line("solver \(solverName) \(solverVersion)")
    out.line("file frames views=\(n)")
    for (k, c) in sums.enumerated() { out.line("u \(k) n=\(nvalues) sum=\(c.sum) hash=\(hex16(c.hash))") }
    for l in lines { out.line(l) }
    out.flush()
    return 0
}
