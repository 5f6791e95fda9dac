/// What views, constraints, arrangements and the animator hold to reach their layout, in place of a weak
/// reference to it: a weak reference gives the layout a side table, and every retain and release of the layout
/// then goes through that table (7% of a build's time). The layout owns one link, sets it in `init` and clears it
/// first thing in `deinit`, so `layout` is nil once the layout is gone, as a weak reference would be.
final class LayoutLink {
    /// The layout while it lives; nil from the start of its `deinit`.
    unowned(unsafe) var layout: Layout?

    init() {}
}
