// Moa — the frames of the live views in one array by view slot, the state `Layout.solve()` reads and writes.

import MoaSolver

/// The frame state of one view (`FrameTable.slots`).
package struct FrameSlot {
    /// The solved frame in root space and in the superview.
    package internal(set) var root = Rect.zero
    package internal(set) var rel = Rect.zero
    /// The root frame the solve in progress computed (read for the superview of each view it refreshes).
    var pending = Rect.zero
    /// The solver variables' indices: minX, minY, width, height.
    var minX: Int32, minY: Int32, width: Int32, height: Int32
    /// The superview's slot, -1 for the root.
    package internal(set) var superSlot: Int32
    /// The number of subviews (a view whose origin moves refreshes them: only containers are looked at).
    var subviewCount: Int32 = 0
    /// `View.depth`.
    package internal(set) var depth: Int32
    package internal(set) var serial: Int
    /// Solved at least once (a new view counts as moved at its first solve).
    var solved = false
    /// In the list the next solve refreshes (`Layout.framesToRefresh`). A slot released while listed stays
    /// listed (and marked) until that solve or compaction: a view made in it is then refreshed once.
    var queued = false
    package internal(set) var live = true
    /// Guides are refreshed but not reported as changed.
    package internal(set) var guide: Bool
}

/// A view whose frame changed in a solve, by serial and slot (the slot is the view's while its `FrameSlot`
/// is live with that serial: a binding that keeps the list checks it).
package struct ChangedView {
    package let serial: Int
    package let slot: Int32
}

/// The frame state of every live view (root and guides included), by slot (`View.slot`): a solve in which many
/// views move walks this array, not the view objects (a view object is some 450 bytes and its variables
/// another array; 100,000 of them are far from the caches, and each reference read is a retain). Slots are
/// dense: a removed view's slot is given to the next view made.
package struct FrameTable {
    package internal(set) var slots: [FrameSlot] = []
    var freeSlots: [Int32] = []
    /// The slots of the root and every view in hierarchy order (`Layout.forEachSlotInHierarchy`): a slot, or
    /// `~slot` for a view listed only with the guides (a guide the layout or an arrangement owns). Valid while
    /// `hierarchyKnown`; a change of any view's subviews or ownership clears it.
    var hierarchy: [Int32] = []
    var hierarchyKnown = false

    /// A slot for a new view, its frames zero and not yet solved.
    mutating func allocate(serial: Int, guide: Bool, superSlot: Int, depth: Int, variables v: [Variable]) -> Int {
        var entry = FrameSlot(minX: Int32(v[0].index), minY: Int32(v[1].index), width: Int32(v[2].index),
                              height: Int32(v[3].index), superSlot: Int32(superSlot), depth: Int32(clamping: depth),
                              serial: serial, guide: guide)
        guard let free = freeSlots.popLast() else {
            slots.append(entry)
            return slots.count - 1
        }
        let slot = Int(free)
        entry.queued = slots[slot].queued
        slots[slot] = entry
        return slot
    }

    /// Gives a removed view's slot back (its `queued` mark stays: see `FrameSlot.queued`).
    mutating func release(_ slot: Int) {
        slots[slot].live = false
        freeSlots.append(Int32(slot))
    }
}
