// Moa — ranks for a batch of constraints about to be added: the variables that nothing holds yet, ranked so that
// adding the batch in any order builds the tableau that adding it grown from its ends would.

/// What `Solver.rankFreshVariables(for:)` changed (each variable's rank symbol before the call), to give back to
/// `Solver.restoreRanks(_:)` when the batch is not added after all. Empty when nothing changed.
public struct RankSnapshot {
    var slots: [Int32] = []
    var symbols: [Int32] = []
    /// True when the call changed no rank.
    public var isEmpty: Bool { slots.isEmpty }
    public init() {}
}

extension SolverCore {
    /// Whether variable `slot` is one whose rank can change without touching the tableau: live, its symbol in
    /// no row and no objective, not placed, and no symbol placed just below or just above it (a placed symbol's
    /// rank is relative to the variable it was placed beside).
    func hasFreeRank(_ slot: Int) -> Bool {
        guard isUnheld(slot), tab.rankOrder[varSym[slot]] < 0 else { return false }
        let id = varSym[slot].index
        return tab.placesTaken[id] == 0 && (id + 1 >= tab.placesTaken.count || tab.placesTaken[id + 1] == 0)
    }

    /// See `Solver.rankFreshVariables(for:)`.
    ///
    /// Peeling: a fresh variable that only one of the batch's required equalities holds (among those not taken
    /// yet) is what that equality defines; taking the equality lowers the count of its other variables, which
    /// may free the next (a chain peels from both ends, a tree from its leaves). The equality taken last defines
    /// the lowest-ranked variable: the ranks are the reverse of the peeling, each defined variable just above
    /// the fresh variables of its equality that no equality defines (a view's width just below the next view's
    /// position), and the variables that no equality defines or that close a loop of equalities (a grid's)
    /// above all, in the order they ranked before. The batch's fresh variables then share the symbols they held
    /// among them (their ranks), given out in that order: no other variable's rank moves.
    mutating func rankFreshVariables(_ batch: [(expression: Expression, relation: Relation, priority: Double)])
        -> RankSnapshot {
        guard batch.count >= 2 else { return RankSnapshot() }
        // The batch's fresh variables, numbered locally in the order they appear (-1: a variable that is not;
        // -2: not seen yet), by variable slot: in an array when the batch is large beside the solver's variables,
        // else in a dictionary (a few lines added to a large layout pay for what they hold only). The terms are
        // estimated, not counted: the first touch of every term array is a cache miss.
        let termCount = 3 * batch.count
        var dense = termCount >= varLive.count / 8 ? [Int32](repeating: -2, count: varLive.count) : []
        var sparse: [Int: Int32] = [:]
        var slots: [Int] = []
        var stamp: [Int32] = []                  // per local: the last item that listed it
        var eqStart: [Int32] = [0], eqVars: [Int32] = []   // each required equality's fresh locals
        var bounded: [Bool] = []                 // per local: a constraint of the batch holds it alone
        slots.reserveCapacity(termCount / 2)
        stamp.reserveCapacity(termCount / 2)
        bounded.reserveCapacity(termCount / 2)
        eqVars.reserveCapacity(termCount)
        for n in batch.indices {
            let required = batch[n].priority >= Priority.required
            let itemStamp = Int32(truncatingIfNeeded: n)
            var terms = 0, last: Int32 = -1
            for t in batch[n].expression.terms where abs(t.coefficient) >= Tolerance.coefEpsilon {
                terms += 1
                let slot = t.variable.slot
                guard t.variable.rawValue != 0, slot < varLive.count, varLive[slot],
                      varGeneration[slot] == t.variable.generation else { continue }
                var k = dense.isEmpty ? sparse[slot] ?? -2 : dense[slot]
                if k == -2 {
                    k = hasFreeRank(slot) ? Int32(slots.count) : -1
                    if dense.isEmpty { sparse[slot] = k } else { dense[slot] = k }
                    if k >= 0 { slots.append(slot); stamp.append(-1); bounded.append(false) }
                }
                last = k
                if k >= 0, required, stamp[Int(k)] != itemStamp { stamp[Int(k)] = itemStamp; eqVars.append(k) }
            }
            if terms == 1 && last >= 0 { bounded[Int(last)] = true }
            // Only a required equality defines a variable here. (Counting bounds too, `width >= 10` defining
            // the width, tried: a shuffled chain of 10,000 views then held 141k cells instead of 37k.)
            if !(required && batch[n].relation == .equal) { eqVars.removeSubrange(Int(eqStart.last!)...) }
            if eqVars.count > Int(eqStart.last!) { eqStart.append(Int32(eqVars.count)) }
        }
        let m = slots.count
        guard m >= 2 else { return RankSnapshot() }
        let equalities = eqStart.count - 1

        // Each local's equalities (compressed rows), and its count of equalities not taken yet.
        var count = [Int32](repeating: 0, count: m)
        for k in eqVars { count[Int(k)] += 1 }
        var adjStart = [Int32](repeating: 0, count: m + 1)
        for k in 0..<m { adjStart[k + 1] = adjStart[k] + count[k] }
        var next = adjStart
        var adj = [Int32](repeating: 0, count: eqVars.count)
        for e in 0..<equalities {
            for i in Int(eqStart[e])..<Int(eqStart[e + 1]) {
                let k = Int(eqVars[i])
                adj[Int(next[k])] = Int32(e)
                next[k] += 1
            }
        }

        // Peel, the highest-ranked peelable variable first (a batch whose variables are numbered in a growing
        // order keeps its order). When no variable has one equality left (a chain held at both ends, the loops
        // of a grid), the equality with the most variables among those of the highest-ranked variable that has
        // several is left out (it goes in as an ordinary row, as a loop's last equality does in any order).
        let rankOf = slots.map { varSym[$0].index }
        // Which peelable variable an equality defines first: one that no constraint holds alone (a position
        // rather than a size, which its bound or preference defines in a growing order), then the highest-ranked
        // (`symbol << 31 | local`, both below 2^31: symbol ids are Int32).
        let peelKey = (0..<m).map { k in (bounded[k] ? 0 : Int64(1) << 62) | Int64(rankOf[k]) << 31 | Int64(k) }
        var byRank: [Int] = []   // highest first, sorted when peeling first stops
        var taken = [Bool](repeating: false, count: equalities)
        var definedBy = [Int32](repeating: -1, count: m)
        var peeled: [Int32] = []
        var heap = PeelHeap()
        for k in 0..<m where count[k] == 1 { heap.push(peelKey[k]) }
        var cursor = 0
        while true {
            // The equality to take: a peeled variable's (`v` defined), or one left out (`v` -1).
            var e = -1, v = -1
            if let top = heap.pop() {
                let vi = Int(top & 0x7FFF_FFFF)
                guard definedBy[vi] < 0, count[vi] == 1 else { continue }
                for i in Int(adjStart[vi])..<Int(adjStart[vi + 1]) where !taken[Int(adj[i])] { e = Int(adj[i]); break }
                guard e >= 0 else { continue }
                definedBy[vi] = Int32(e)
                peeled.append(Int32(vi))
                v = vi
            } else {
                if byRank.isEmpty { byRank = sortedByRank(Array(0..<m), rankOf).reversed() }
                while cursor < m && (definedBy[byRank[cursor]] >= 0 || count[byRank[cursor]] < 2) { cursor += 1 }
                guard cursor < m else { break }
                let w = byRank[cursor]
                for i in Int(adjStart[w])..<Int(adjStart[w + 1]) where !taken[Int(adj[i])] {
                    let d = Int(adj[i])
                    if e < 0 || eqStart[d + 1] - eqStart[d] > eqStart[e + 1] - eqStart[e] { e = d }
                }
            }
            taken[e] = true
            for i in Int(eqStart[e])..<Int(eqStart[e + 1]) {
                let w = Int(eqVars[i])
                guard w != v, definedBy[w] < 0 else { continue }
                count[w] -= 1
                if count[w] == 1 { heap.push(peelKey[w]) }
            }
        }

        // The rank order, lowest first: the reverse of the peeling, each defined variable just above the fresh
        // variables its equality holds that nothing defines, and those nothing defines otherwise above all.
        var order: [Int] = []
        order.reserveCapacity(m)
        var placed = [Bool](repeating: false, count: m)
        for v in peeled.reversed() {
            let e = Int(definedBy[Int(v)])
            for i in Int(eqStart[e])..<Int(eqStart[e + 1]) {
                let w = Int(eqVars[i])
                if definedBy[w] < 0 && !placed[w] { placed[w] = true; order.append(w) }
            }
            placed[Int(v)] = true
            order.append(Int(v))
        }
        order += sortedByRank((0..<m).filter { !placed[$0] }, rankOf)

        // The symbols, lowest first, to the variables in that order (their values with them).
        var snapshot = RankSnapshot()
        snapshot.slots = slots.map { Int32($0) }
        snapshot.symbols = slots.map { Int32(varSym[$0].index) }
        let symbols = snapshot.symbols.sorted()
        reassignRanks(slots: order.map { slots[$0] }, symbols: symbols)
        return snapshot
    }

    /// Whether variable `slot`'s symbol is in no row and no objective: it can trade symbols with another such
    /// variable without touching the tableau.
    func isUnheld(_ slot: Int) -> Bool {
        let s = varSym[slot]
        return varLive[slot] && s.isValid && tab.kind[s] == .external && !tab.rowOf[s].isValid
            && tab.cols.isEmpty(s) && tab.pcols.isEmpty(s) && !tab.isCandidate[s] && tab.isFreeOfObjective(s)
    }

    /// `locals` by `rankOf` (each below 2^31), lowest first: a sort of plain integers, `rank << 32 | local`.
    private func sortedByRank(_ locals: [Int], _ rankOf: [Int]) -> [Int] {
        var keys = locals.map { Int64(rankOf[$0]) << 32 | Int64($0) }
        keys.sort()
        return keys.map { Int($0 & 0xFFFF_FFFF) }
    }

    /// See `Solver.restoreRanks(_:)`.
    mutating func restoreRanks(_ snapshot: RankSnapshot) {
        guard !snapshot.isEmpty else { return }
        let slots = snapshot.slots.map { Int($0) }
        guard slots.allSatisfy({ $0 < varLive.count && isUnheld($0) }),
              slots.map({ Int32(varSym[$0].index) }).sorted() == snapshot.symbols.sorted() else { return }
        reassignRanks(slots: slots, symbols: snapshot.symbols)
    }

    /// Gives variable `slots[i]` symbol `symbols[i]`, each carrying its value: the symbols are those the
    /// variables hold among them, in no row (`isUnheld`). A symbol's place in the rank order stays its own.
    private mutating func reassignRanks(slots: [Int], symbols: [Int32]) {
        let values = slots.map { tab.symValue[varSym[$0]] }
        for (i, slot) in slots.enumerated() {
            let s = Sym(Int(symbols[i]))
            varSym[slot] = s
            tab.owner[s] = Int32(slot)
            tab.symValue[s] = values[i]
        }
    }
}

/// A binary max-heap of plain integers (the peeling's priorities), for its next variable.
struct PeelHeap {
    private var items: [Int64] = []

    mutating func push(_ x: Int64) {
        items.append(x)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[parent] < items[i] else { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    mutating func pop() -> Int64? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if items.isEmpty { return top }
        items[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var largest = i
            if l < items.count && items[l] > items[largest] { largest = l }
            if r < items.count && items[r] > items[largest] { largest = r }
            guard largest != i else { return top }
            items.swapAt(i, largest)
            i = largest
        }
    }
}
