// moa-bench --frames: time per animation frame of a layout built from equations (issue: motion benchmark).
//
//     moa-bench --frames N [-r REPS]
//
// A screen of N views: a sidebar beside a content column of N-2 rows, each row chained under the one above with
// a label of intrinsic size. Each case animates constants with an ease-in-out curve over 60 frames of 1/60 s
// (each frame: interpolated constants set in place, incremental re-solve, frames read back) and prints
//
//     frames views=N animated=K frames=60 ns_per_frame=T build_ns=B rep=R
//
// for K = 1 (the sidebar's collapse constraint: every view moves) and K = 8 (eight row gaps at once).
// The kiwi driver's counterpart is the `edit` phase of the `animate` workloads (600 frames of 3 suggestions).

import MoaLayout

func buildScreen(_ n: Int) throws -> (Layout, LayoutConstraint, [LayoutConstraint]) {
    let layout = Layout()
    try layout.setRootSize(width: 1024, height: 768)
    let sidebar = try layout.addView("sidebar")
    let content = try layout.addView("content")
    var text = """
        sidebar.left == 0
        sidebar.top == 0
        sidebar.bottom == 0
        sidebar.width == 240
        content.left == sidebar.right
        content.right == 0
        content.top == 0

        """
    let rows = max(1, n - 2)
    var gaps: [Int] = []
    var lines = 7
    for i in 0 ..< rows {
        let row = try layout.addView("row\(i)", in: content)
        try row.setIntrinsicSize(width: Double(80 + i % 7 * 10), height: 20)
        text += "row\(i).left == content.left + 16\n"
        text += i == 0 ? "row0.top == content.top + 8\n" : "row\(i).top == row\(i - 1).bottom + 4\n"
        lines += 2
        if i > 0 { gaps.append(lines - 1) }
    }
    text += "content.bottom >= row\(rows - 1).bottom + 8\n"
    let cs = try layout.eqs(text)
    let collapse = cs[0]
    let chosen = stride(from: 0, to: gaps.count, by: max(1, gaps.count / 8)).prefix(8).map { cs[gaps[$0]] }
    return (layout, collapse, Array(chosen))
}

func runFrames(_ n: Int, reps: Int) -> Int32 {
    var out = Out()
    for r in 0 ..< reps {
        do {
            let t0 = nowNS()
            let (layout, collapse, gaps) = try buildScreen(n)
            _ = layout.solve()
            let build = nowNS() - t0
            for targets in [[(collapse, -240.0)], gaps.map { ($0, $0.constant + 12) }] {
                let animator = layout.animator
                for (c, to) in targets { _ = try animator.animate(c, to: to, duration: 1.0, curve: .easeInOut) }
                let start = nowNS()
                for _ in 0 ..< 60 { _ = try animator.advance(by: 1.0 / 60) }
                let per = (nowNS() - start) / 60
                out.line("frames views=\(n) animated=\(targets.count) frames=60 ns_per_frame=\(per) build_ns=\(build) rep=\(r)")
            }
        } catch {
            out.flush()
            eprint("moa error: \(error)")
            return 3
        }
    }
    out.flush()
    return 0
}
