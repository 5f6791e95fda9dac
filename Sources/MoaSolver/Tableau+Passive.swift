// Moa — passive rows: definitions of external variables kept unreduced, their flat expansions and the
// aggregate dummies that stand for their required-equality markers in active rows.

extension Tableau {
    // MARK: - Passive rows

    /// Whether non-basic external `v` can be defined by a passive row at once: no objective holds it, and the
    /// active rows that hold it have external basics (their values are unrestricted, so taking the definition
    /// in cannot make them infeasible). Restricted rows never hold an external that is not basic (a row with one
    /// takes it as its basic when it goes in), so this is the usual case.
    func heldOnlyByExternalRows(_ v: Sym) -> Bool {
        guard kind[v] == .external, isFreeOfObjective(v) else { return false }
        for ref in cols[v] where kind[rows[ref.row].basic] != .external { return false }
        return true
    }

    /// Whether no objective (nor phase one's) holds symbol `s`.
    func isFreeOfObjective(_ s: Sym) -> Bool {
        if phaseOne.isActive && phaseOne.index[s] >= 0 { return false }
        for l in levels.indices where levels[l].coef[s] != 0 { return false }
        return true
    }

    /// Readies the passive rows downstream of `v` for a new definition of `v` (a variable no passive row
    /// defines now): their flat expansions held `v` itself and are dropped. Returns the downstream with
    /// derivatives (`downstream(ofSymbol:)`) and true when one of its aggregates is in use, so that the caller
    /// compensates them for what they will stand for; ([], false) otherwise.
    mutating func prepareDefinition(of v: Sym) -> ([(RowID, Double)], Bool) {
        if pcols.isEmpty(v) { return ([], false) }
        var compensate = false
        markDownstream(of: v)
        for (_, w) in scratch.reach {
            flats[w].seq = 0
            if !compensate && rows[w].aggregate.isValid && !aggregateUnused(w) { compensate = true }
        }
        unmarkDownstream()
        return compensate ? (downstream(ofSymbol: v), true) : ([], false)
    }

    /// Turns row `r` (being built, holding `subject`) into the passive row defining `subject`: the row solved for
    /// it, unreduced. Its place in the evaluation order is the subject's rank (`Row.seq`).
    mutating func makePassive(_ r: RowID, subject: Sym) {
        // Built as an active row; re-file its cells as passive ones (kept meanwhile in the pivot scratch, which
        // no pivot is using here, rather than in two arrays made per definition).
        loadPivot(r)
        while !rows[r].cells.isEmpty { removeCell(r, rows[r].cells.count - 1) }
        rows[r].passive = true
        rows[r].seq = rank(subject)
        flats[r].seq = 0   // a reused slot must not find an old definition's expansion
        var a = 0.0
        let n = scratch.pivotSyms.count
        for i in 0..<n where scratch.pivotSyms[i] == subject { a = scratch.pivotCoefs[i] }
        let f = -1 / a
        for i in 0..<n where scratch.pivotSyms[i] != subject {
            appendCell(r, scratch.pivotSyms[i], scratch.pivotCoefs[i] * f)
        }
        rows[r].constant = Tableau.clean(rows[r].constant * f)
        rows[r].basic = subject
        rowOf[subject] = r
        evaluation.invalidate()
    }

    /// Replaces `v`, just defined by a passive row, by its expansion in the active rows and objectives that
    /// hold it (rows with an external basic only: `heldOnlyByExternalRows`). Returns false, changing nothing,
    /// when the expansion holds `v` itself: one of those rows defines a variable `v`'s definition depends on.
    mutating func substituteDefinition(of v: Sym) -> Bool {
        if cols.isEmpty(v) && isFreeOfObjective(v) { return true }
        let t = allocRow()
        setReduced(t, [v], [1])
        if cellIndex(t, v) != nil { freeRow(t); return false }
        substitute(v, t)
        freeRow(t)
        return true
    }

    /// Sets the cells of the empty row `r` to `sum(coefs[i] * syms[i])` with basic symbols expanded into
    /// non-basic ones, and adds the constants met on the way: an active row is merged; a passive row is expanded
    /// once (latest first, so a definition shared by several paths is expanded once) into its own symbols.
    mutating func setReduced(_ r: RowID, _ syms: [Sym], _ coefs: [Double]) {
        var k = beginReduced(r)
        for i in syms.indices { addReduced(syms[i], coefs[i], &k) }
        finishReduced(r, k)
    }

    /// `setReduced` a term at a time, for callers whose terms are not in arrays (a constraint's variables and
    /// markers): `var k = beginReduced(r)`, `addReduced` for each term, then `finishReduced(r, k)`. Nothing may
    /// change the tableau in between.
    mutating func beginReduced(_ r: RowID) -> Double {
        scratch.heap.removeAll()
        scratch.touched.removeAll(keepingCapacity: true)
        return rows[r].constant
    }

    /// Adds `coef * s` to the row `beginReduced` started; `k` is its running constant.
    mutating func addReduced(_ s: Sym, _ coef: Double, _ k: inout Double) {
        let br = rowOf[s]
        // A passive term brings its aggregate dummy (a non-basic symbol, so it is accumulated as is).
        if br.isValid && rows[br].passive { accumulate(aggregateSymbol(br), coef, &k) }
        accumulate(s, coef, &k)
    }

    /// Expands the passive rows the terms met and writes the cells and constant `k` into row `r`.
    mutating func finishReduced(_ r: RowID, _ constant: Double) {
        var k = constant
        while let (_, pr) = scratch.heap.pop() {
            stats.expansions += 1
            let b = rows[pr].basic
            let c = scratch.expandCoef[b]
            scratch.expandCoef[b] = 0
            scratch.expandQueued[b] = false
            if c == 0 { continue }
            if flatten(pr) {
                k += c * flatConstant(pr)
                let n = flats[pr].terms.count
                for j in 0..<n { accumulate(flats[pr].terms[j].sym, c * flats[pr].terms[j].coef, &k) }
                continue
            }
            k += c * rows[pr].constant
            let n = rows[pr].cells.count
            for i in 0..<n {
                let cell = rows[pr].cells[i]
                if kind[cell.sym] == .dummy { continue }   // in the aggregate
                accumulate(cell.sym, c * cell.coef, &k)
            }
        }
        if rows[r].cells.capacity < scratch.touched.count { rows[r].cells.reserveCapacity(scratch.touched.count) }
        for s in scratch.touched {
            let c = scratch.expandCoef[s]
            scratch.expandCoef[s] = 0
            scratch.expandQueued[s] = false
            if abs(c) >= Tolerance.coefEpsilon { appendCell(r, s, c) }
        }
        rows[r].constant = Tableau.clean(k)
    }

    private mutating func accumulate(_ s: Sym, _ factor: Double, _ k: inout Double) {
        let br = rowOf[s]
        if !br.isValid {
            if !scratch.expandQueued[s] { scratch.expandQueued[s] = true; scratch.touched.append(s) }
            scratch.expandCoef[s] += factor
        } else if rows[br].passive {
            scratch.expandCoef[s] += factor
            if !scratch.expandQueued[s] {
                scratch.expandQueued[s] = true
                scratch.heap.push(rows[br].seq, br)
            }
        } else {
            k += factor * rows[br].constant
            let n = rows[br].cells.count
            for i in 0..<n {
                let cell = rows[br].cells[i]
                if !scratch.expandQueued[cell.sym] {
                    scratch.expandQueued[cell.sym] = true
                    scratch.touched.append(cell.sym)
                }
                scratch.expandCoef[cell.sym] += factor * cell.coef
            }
        }
    }

    // MARK: - Flat expansions of passive rows

    @inline(__always) func flatKnown(_ p: RowID) -> Bool {
        flats[p].seq == rows[p].seq && flats[p].epoch == flatEpoch
    }

    /// Makes passive row `p`'s flat expansion current, computing those of the passive rows it holds first.
    /// Returns false when the expansion is long (not cached).
    mutating func flatten(_ p: RowID) -> Bool {
        if !flatKnown(p) {
            scratch.flatStack.removeAll(keepingCapacity: true)
            scratch.flatStack.append(p)
            while let top = scratch.flatStack.last {
                if flatKnown(top) { scratch.flatStack.removeLast(); continue }
                var pending = false
                let n = rows[top].cells.count
                for i in 0..<n {
                    let br = rowOf[rows[top].cells[i].sym]
                    if br.isValid && rows[br].passive && !flatKnown(br) {
                        scratch.flatStack.append(br)
                        pending = true
                    }
                }
                if !pending { computeFlat(top); scratch.flatStack.removeLast() }
            }
        }
        return !flats[p].long
    }

    /// The flat expansion of passive row `p` from its cells and the (current) expansions of the rows it holds.
    private mutating func computeFlat(_ p: RowID) {
        var k = rows[p].constant
        var long = false
        scratch.flatTouched.removeAll(keepingCapacity: true)
        let n = rows[p].cells.count
        for i in 0..<n where !long {
            let cell = rows[p].cells[i]
            if kind[cell.sym] == .dummy { continue }
            let br = rowOf[cell.sym]
            if br.isValid && rows[br].passive {
                if flats[br].long { long = true; break }
                k += cell.coef * flatConstant(br)
                for j in flats[br].terms.indices {
                    flatAdd(flats[br].terms[j].sym, cell.coef * flats[br].terms[j].coef)
                }
            } else {
                flatAdd(cell.sym, cell.coef)
            }
            if scratch.flatTouched.count > 2 * Tableau.flatLimit { long = true }
        }
        flats[p].terms.removeAll(keepingCapacity: true)
        for s in scratch.flatTouched {
            let c = scratch.flatCoef[s]
            scratch.flatCoef[s] = 0
            scratch.flatMark[s] = false
            if !long && abs(c) >= Tolerance.coefEpsilon { flats[p].terms.append((s, c)) }
        }
        if flats[p].terms.count > Tableau.flatLimit { long = true }
        if long { flats[p].terms.removeAll() }
        flats[p].long = long
        flats[p].constant = Tableau.clean(k)
        flats[p].constantEpoch = flatConstantEpoch
        flats[p].seq = rows[p].seq
        flats[p].epoch = flatEpoch
    }

    /// Makes current the flat expansions, constants included, of the passive rows that passive row `p` holds:
    /// what expanding `p` reads (`setReduced` over its cells, when it is activated or dropped while used).
    mutating func readyExpansion(of p: RowID) {
        var i = 0
        while i < rows[p].cells.count {
            readyExpansion(ofSymbol: rows[p].cells[i].sym)
            i += 1
        }
    }

    /// Makes current the flat expansion, constant included, of the passive row defining `s`, if any: what a
    /// row holding `s` reads when it is reduced (`setReduced`).
    mutating func readyExpansion(ofSymbol s: Sym) {
        let r = rowOf[s]
        if r.isValid && rows[r].passive && flatten(r) { _ = flatConstant(r) }
    }

    /// The constant of passive row `p`'s (known, short) flat expansion, recomputed when a passive constant
    /// changed since: from the evaluated values while they are current (the row's value less its terms'), in
    /// O(terms); else from its row and those of the rows it holds (an explicit stack: chains of definitions are
    /// deep), in O(upstream), which a leaf's removal after a root resize met as the whole layout.
    mutating func flatConstant(_ p: RowID) -> Double {
        if flats[p].constantEpoch == flatConstantEpoch { return flats[p].constant }
        if valuesAreCurrent, let k = flatConstantFromValues(p) {
            #if DEBUG   // the walk it saves, as a check (not counted in the statistics)
            let walked = stats.flatConstantRowsWalked
            let y = flatConstantByRows(p)
            stats.flatConstantRowsWalked = walked
            let scale = max(1, abs(y), abs(symValue[rows[p].basic]))
            precondition(abs(k - y) <= 1e-8 * scale, "flat constant from values \(k) against rows \(y)")
            #endif
            flats[p].constant = k
            flats[p].constantEpoch = flatConstantEpoch
            stats.flatConstantsFromValues += 1
            return k
        }
        return flatConstantByRows(p)
    }

    /// `flatConstant` from the evaluated values: the value of `p`'s variable less its terms' (an active basic's
    /// is its row's constant, a non-basic symbol's 0). The dummies the expansion leaves out are 0 in a tableau
    /// whose required equalities hold. Nil when the expansion is not known or a term is a passive basic.
    private func flatConstantFromValues(_ p: RowID) -> Double? {
        guard flatKnown(p) && !flats[p].long else { return nil }
        var k = symValue[rows[p].basic]
        let n = flats[p].terms.count
        for j in 0..<n {
            let r = rowOf[flats[p].terms[j].sym]
            guard r.isValid else { continue }
            if rows[r].passive { return nil }
            k -= flats[p].terms[j].coef * rows[r].constant
        }
        return Tableau.clean(k)
    }

    private mutating func flatConstantByRows(_ p: RowID) -> Double {
        scratch.constantStack.removeAll(keepingCapacity: true)
        scratch.constantStack.append(p)
        while let top = scratch.constantStack.last {
            if flats[top].constantEpoch == flatConstantEpoch { scratch.constantStack.removeLast(); continue }
            var pending = false
            var k = rows[top].constant
            let n = rows[top].cells.count
            for i in 0..<n {
                let cell = rows[top].cells[i]
                if kind[cell.sym] == .dummy { continue }
                let br = rowOf[cell.sym]
                guard br.isValid && rows[br].passive else { continue }
                if flats[br].constantEpoch != flatConstantEpoch {
                    scratch.constantStack.append(br)
                    pending = true
                } else {
                    k += cell.coef * flats[br].constant
                }
            }
            if !pending {
                flats[top].constant = Tableau.clean(k)
                flats[top].constantEpoch = flatConstantEpoch
                stats.flatConstantRowsWalked += 1
                scratch.constantStack.removeLast()
            }
        }
        return flats[p].constant
    }

    @inline(__always) private mutating func flatAdd(_ s: Sym, _ c: Double) {
        if !scratch.flatMark[s] { scratch.flatMark[s] = true; scratch.flatTouched.append(s) }
        scratch.flatCoef[s] += c
    }

    /// Whether passive row `p`, the definition made by a required equality with dummy `marker`, is used by
    /// nothing: no live passive row holds its variable, and neither its aggregate dummy nor the marker (which
    /// stands in the rows expanded through it once the aggregate is written out) occurs in an active row or an
    /// objective. Then it can be dropped as it is. (Definitions by inequalities or soft constraints are not
    /// dropped this way: the random tests broke when they were, not understood yet; they are activated.)
    func isUnusedDefinition(_ p: RowID, marker: Sym) -> Bool {
        pcols.isEmpty(rows[p].basic) && (!marker.isValid || isUnusedDummy(marker)) && aggregateUnused(p)
    }

    /// Whether the aggregate dummy of passive row `p`, if any, occurs in no active row and no objective.
    func aggregateUnused(_ p: RowID) -> Bool {
        let d = rows[p].aggregate
        return !d.isValid || isUnusedDummy(d)
    }

    /// Whether dummy `d` occurs in no active row, no objective and not in phase one's.
    private func isUnusedDummy(_ d: Sym) -> Bool {
        if !cols.isEmpty(d) || (phaseOne.isActive && phaseOne.index[d] >= 0) { return false }
        for l in levels.indices where levels[l].coef[d] != 0 { return false }
        return true
    }

    /// Drops an unused definition (`isUnusedDefinition`): its variable becomes free, its aggregate goes.
    mutating func dropDefinition(_ p: RowID) {
        let d = rows[p].aggregate
        freeRow(p)
        if d.isValid { releaseSymbol(d) }
    }

    /// Drops passive row `q`, the definition of `v` by a required equality with dummy `m`, while other passive
    /// rows or active rows use it, in time proportional to what uses it: kiwi's removal with `q` itself as the
    /// row `m` leaves by. `v` becomes a free (non-basic) variable, which the passive rows downstream hold by name
    /// already; the aggregates downstream stop standing for `q`'s dummies (they stand for what their rows hold,
    /// and `q` is no longer a definition); each active row or objective that held `m`, directly with coefficient
    /// `d` or inside those aggregates (`alpha`: the sum of its coefficients on them times their derivatives with
    /// respect to `v`), gets what the pivot gives it. With `v = t + c m` (`t` = `q`'s other terms reduced,
    /// `B` = the aggregates and dummies in `t` that `q`'s own terms bring) and `kappa = d + c alpha` its
    /// coefficient on `m` in full:
    ///
    ///     row += (kappa / c) (v - t) + alpha B,  and `m` and `q`'s aggregate go (their cells are the rest)
    ///
    /// Returns false where kiwi's rule would pick another row (a restricted row or a row of dummies holds `m`),
    /// during phase one, or when `t` itself holds `m` (a row that depends on `v` is the definition of something
    /// `q` holds), changing nothing but the aggregates of `q`'s terms it may have made (activation makes them
    /// too); the caller then activates `q` instead. The caller releases `m`.
    mutating func dropUsedDefinition(_ q: RowID, marker m: Sym) -> Bool {
        if phaseOne.isActive { return false }
        guard let mi = rows[q].cells.firstIndex(where: { $0.sym == m }) else { return false }
        let c = rows[q].cells[mi].coef
        let v = rows[q].basic
        let down = downstream(of: q)
        // Each holder's alpha (rows in the order met, so that the result does not depend on hashing) and the
        // objectives' (levels), from the aggregates in use downstream.
        var holders: [(row: RowID, alpha: Double)] = []
        var holderIndex: [RowID: Int] = [:]
        func hold(_ r: RowID, _ x: Double) {
            if let i = holderIndex[r] { holders[i].alpha += x } else { holderIndex[r] = holders.count; holders.append((r, x)) }
        }
        var levelAlpha = [Double](repeating: 0, count: levels.count)
        var marked: [Sym] = [m]
        scratch.symbolMark[m] = true
        defer { for s in marked { scratch.symbolMark[s] = false } }
        for (w, g) in down {
            let a = rows[w].aggregate
            guard a.isValid else { continue }
            scratch.symbolMark[a] = true
            marked.append(a)
            if g == 0 { continue }
            for ref in cols[a] { hold(ref.row, rows[ref.row].cells[Int(ref.cell)].coef * g) }
            for l in levels.indices where levels[l].coef[a] != 0 { levelAlpha[l] += levels[l].coef[a] * g }
        }
        for ref in cols[m] { hold(ref.row, 0) }
        // kiwi's rule: a restricted row or a row of dummies that holds `m` would be the leaving row.
        for h in holders {
            let kappa = coefficient(h.row, m) + c * h.alpha
            if abs(kappa) >= Tolerance.coefEpsilon && kind[rows[h.row].basic] != .external { return false }
        }
        let t = allocRow()
        rows[t].constant = rows[q].constant
        var k = beginReduced(t)
        for cell in rows[q].cells where cell.sym != m { addReduced(cell.sym, cell.coef, &k) }
        finishReduced(t, k)
        if rows[t].cells.contains(where: { scratch.symbolMark[$0.sym] }) {
            freeRow(t)
            return false
        }
        // B: what `q`'s own terms bring into `t` besides their expansions (dummies, aggregates of passive terms).
        var bSyms: [Sym] = [], bCoefs: [Double] = []
        for cell in rows[q].cells where cell.sym != m {
            if kind[cell.sym] == .dummy {
                bSyms.append(cell.sym); bCoefs.append(cell.coef)
            } else if rowOf[cell.sym].isValid && rows[rowOf[cell.sym]].passive {
                bSyms.append(aggregateSymbol(rowOf[cell.sym])); bCoefs.append(cell.coef)
            }
        }
        for (w, _) in down { flats[w].seq = 0 }   // their expansions went through `q`
        let a = rows[q].aggregate
        freeRow(q)   // `v` is free from here (so that an objective that takes it up lists it as a candidate)
        loadPivot(t)
        for h in holders {
            let kappa = coefficient(h.row, m) + c * h.alpha
            touch(h.row)
            if kappa != 0 {
                mergePivot(into: h.row, factor: -kappa / c)
                rows[h.row].constant = Tableau.clean(rows[h.row].constant - kappa / c * rows[t].constant)
                addTerm(h.row, v, kappa / c)
            }
            if h.alpha != 0 { for j in bSyms.indices { addTerm(h.row, bSyms[j], h.alpha * bCoefs[j]) } }
        }
        for l in levels.indices {
            let al = levelAlpha[l]
            let kappa = levels[l].coef[m] + c * al
            let level = LevelID(l)
            if kappa != 0 {
                objAddRow(level, t, -kappa / c)
                objAdd(level, v, kappa / c)
            }
            if al != 0 { for j in bSyms.indices { objAdd(level, bSyms[j], al * bCoefs[j]) } }
        }
        freeRow(t)
        if a.isValid { releaseSymbol(a) }   // its cells are accounted for above
        aggregateEpoch &+= 1
        return true
    }

    /// Replaces passive row `r` by an equivalent active (reduced, indexed) row with the same basic variable, so
    /// that the simplex can pivot on the symbols it holds. Returns the new row.
    ///
    /// The aggregates downstream stop standing for `r`'s dummies (they stand for what their passive rows hold,
    /// and `v` is no longer passive): the rows and objectives that hold them get those dummies (and the
    /// aggregates of the passive rows `r` holds) explicitly, in proportion to their derivatives with respect to
    /// `v` (`compensateAggregates`), and `r`'s own aggregate is written out the same way. That costs the
    /// downstream walk and the rows that use it, where writing every aggregate downstream out did a chain's whole
    /// length of merges.
    mutating func activate(_ r: RowID) -> RowID {
        // Recorded before any field changes: the aggregate is cleared below before `freeRow` records the row,
        // and a rolled-back swap then left the definition without its aggregate (a later constant shift missed
        // the rows that hold it; found by a stress of the C API with nice numbers).
        touch(r)
        let down = downstream(of: r)
        for (w, _) in down { flats[w].seq = 0 }   // their expansions go through `r`
        var delta: [(Sym, Double)] = []
        for c in rows[r].cells {
            if kind[c.sym] == .dummy {
                delta.append((c.sym, -c.coef))
            } else if rowOf[c.sym].isValid && rows[rowOf[c.sym]].passive {
                delta.append((aggregateSymbol(rowOf[c.sym]), -c.coef))
            }
        }
        compensateAggregates(down, delta: delta)
        let a = rows[r].aggregate
        if a.isValid {
            releaseSymbol(a)   // written out above
            rows[r].aggregate = .none
            aggregateEpoch &+= 1
        }
        let v = rows[r].basic
        let k = rows[r].constant
        let cells = rows[r].cells
        freeRow(r)
        let nr = allocRow()
        rows[nr].constant = k
        setReduced(nr, cells.map(\.sym), cells.map(\.coef))
        rows[nr].basic = v
        rowOf[v] = nr
        evaluation.invalidate()
        return nr
    }

    // MARK: - Aggregate dummies of passive rows

    /// The aggregate dummy of passive row `p`, made on first use.
    mutating func aggregateSymbol(_ p: RowID) -> Sym {
        if rows[p].aggregate.isValid { return rows[p].aggregate }
        aggregateEpoch &+= 1
        touch(p)
        let d = newSymbol(.dummy, owner: -1)
        aggregateOf[d] = p
        rows[p].aggregate = d
        return d
    }

    /// Changes whenever a passive row or an aggregate changes shape (cells, basic, rank; made, freed, retired):
    /// every such change invalidates the evaluation program or makes or retires an aggregate.
    var shapeEpoch: UInt64 { evaluation.epoch &+ aggregateEpoch }

    /// The aggregate dummies of passive row `p` and of the passive rows downstream of it, each with the
    /// derivative of its row's variable with respect to `p`'s (those with none or a derivative of 0 left out):
    /// what a change of `p`'s constant moves in the active rows. Cached until the shape changes
    /// (`shapeEpoch`): an animated constant asks every frame, and walking its whole downstream was half of a
    /// frame in which eight gaps of a 10k-view column moved.
    mutating func aggregatesDownstream(of p: RowID) -> [(Sym, Double)] {
        let epoch = shapeEpoch
        if let known = downstreamAggregates[p], known.epoch == epoch { return known.items }
        var items: [(Sym, Double)] = []
        for (w, g) in downstream(of: p) where g != 0 && rows[w].aggregate.isValid { items.append((rows[w].aggregate, g)) }
        if downstreamAggregates.count >= 256 { downstreamAggregates.removeAll() }   // rows animated long ago
        downstreamAggregates[p] = (epoch, items)
        return items
    }

    /// `aggregatesDownstream(of:)` for several passive rows whose variables move at once, each by its amount:
    /// every aggregate downstream of any of them with how far its row's variable moves in all (the sum over the
    /// rows of amount times derivative), in one walk of their joint downstream. A chain whose every gap changes
    /// (a chain's gap set, 4,000 views) walked the rest of the chain once a gap.
    mutating func aggregatesDownstream(ofAll shifts: [(row: RowID, amount: Double)]) -> [(Sym, Double)] {
        scratch.visit.removeAll(keepingCapacity: true)
        scratch.reach.removeAll(keepingCapacity: true)
        // Each row's own shift is its variable's coefficient to start from (the walk adds what its cells bring).
        for (p, amount) in shifts {
            let b = rows[p].basic
            scratch.expandCoef[b] += amount
            if !scratch.expandQueued[b] {
                scratch.expandQueued[b] = true
                scratch.visit.append(b)
                scratch.reach.append((rows[p].seq, p))
            }
        }
        markDownstreamOfVisits()
        defer { unmarkDownstream() }
        scratch.reach.sort { $0.0 < $1.0 }
        var out: [(Sym, Double)] = []
        for (_, w) in scratch.reach {
            var g = scratch.expandCoef[rows[w].basic]
            for c in rows[w].cells where scratch.expandQueued[c.sym] { g += c.coef * scratch.expandCoef[c.sym] }
            scratch.expandCoef[rows[w].basic] = g
            if g != 0 && rows[w].aggregate.isValid { out.append((rows[w].aggregate, g)) }
        }
        return out
    }

    /// Passive rows downstream of passive row `p` (those holding its variable, and so on), `p` first, in
    /// topological order, each with the derivative of its variable with respect to `p`'s variable.
    mutating func downstream(of p: RowID) -> [(RowID, Double)] {
        [(p, 1)] + downstream(ofSymbol: rows[p].basic)
    }

    /// The passive rows that hold symbol `v`, directly or through other passive rows, in topological order (by
    /// `seq`), each with the derivative of its basic variable with respect to `v`.
    ///
    /// A plain search finds them, one sort puts them in order, then one pass takes the derivatives (each row's
    /// from the rows before it). A max-heap walk did all three at once and cost about three times as much: this
    /// runs over the whole downstream of every definition that changes hands in a shuffled build.
    mutating func downstream(ofSymbol v: Sym) -> [(RowID, Double)] {
        markDownstream(of: v)
        defer { unmarkDownstream() }
        scratch.reach.sort { $0.0 < $1.0 }
        scratch.expandCoef[v] = 1
        var out: [(RowID, Double)] = []
        out.reserveCapacity(scratch.reach.count)
        for (_, w) in scratch.reach {
            var g = 0.0
            for c in rows[w].cells where scratch.expandQueued[c.sym] {
                g += c.coef * scratch.expandCoef[c.sym]
            }
            scratch.expandCoef[rows[w].basic] = g
            out.append((w, g))
        }
        return out
    }

    /// Marks the downstream of `v` (`v` and the basics of the passive rows that hold it, directly or through
    /// other passive rows, in `scratch.expandQueued`) and lists those rows with their seq in `scratch.reach`
    /// (unordered). With a `limit`, stops once more than `limit` rows are found and returns false (the lists
    /// then hold part of the downstream). `unmarkDownstream()` clears the marks.
    @discardableResult
    private mutating func markDownstream(of v: Sym, limit: Int = .max) -> Bool {
        scratch.visit.removeAll(keepingCapacity: true)
        scratch.reach.removeAll(keepingCapacity: true)
        scratch.visit.append(v)
        scratch.expandQueued[v] = true
        return markDownstreamOfVisits(limit: limit)
    }

    /// `markDownstream` from the symbols already in `scratch.visit` (marked), listing what they reach.
    @discardableResult
    private mutating func markDownstreamOfVisits(limit: Int = .max) -> Bool {
        var i = 0
        defer { stats.downstreamVisits += scratch.visit.count }
        while i < scratch.visit.count {
            let s = scratch.visit[i]
            i += 1
            for ref in pcols[s] {
                let b = rows[ref.row].basic
                if scratch.expandQueued[b] { continue }
                if scratch.reach.count >= limit { return false }
                scratch.expandQueued[b] = true
                scratch.visit.append(b)
                scratch.reach.append((rows[ref.row].seq, ref.row))
            }
        }
        return true
    }

    /// Whether at most `limit` passive rows are downstream of `v` (directly or through other passive rows). Stops
    /// walking past the limit, so it costs O(limit) where `downstream(ofSymbol:)` costs the whole downstream.
    mutating func isDownstreamSmall(_ v: Sym, limit: Int) -> Bool {
        if pcols.isEmpty(v) { return true }
        let small = markDownstream(of: v, limit: limit)
        unmarkDownstream()
        return small
    }

    /// Clears what `markDownstream` and `downstream` left in the per-symbol scratch.
    private mutating func unmarkDownstream() {
        for s in scratch.visit {
            scratch.expandCoef[s] = 0
            scratch.expandQueued[s] = false
        }
    }

    /// The definition of `v` changed (it was a free symbol, or it had another definition): what the aggregates
    /// of the passive rows downstream of it stand for changed by `g * delta` each (`down` from
    /// `downstream(ofSymbol:)`, `delta` a combination of dummy and aggregate symbols per unit of `v`). Rows and
    /// objectives that hold them get `-coef * g * delta`, so that what they hold stands for what it did.
    mutating func compensateAggregates(_ down: [(RowID, Double)], delta: [(Sym, Double)]) {
        for (w, g) in down where g != 0 {
            let a = rows[w].aggregate
            if !a.isValid { continue }
            let refs = cols[a]
            for ref in refs {
                let c = rows[ref.row].cells[Int(ref.cell)].coef
                touch(ref.row)
                for (d, k) in delta { addTerm(ref.row, d, -c * g * k) }
            }
            for l in levels.indices {
                let e = levels[l].coef[a]
                if e == 0 { continue }
                for (d, k) in delta { objAdd(LevelID(l), d, -e * g * k) }
            }
        }
    }

    /// The constraint slots whose dummies an aggregate dummy stands for (for conflict certificates).
    func aggregateOwners(_ d: Sym) -> [Int] {
        var out: [Int] = []
        var stack: [RowID] = [aggregateOf[d]]
        var seen = Set<RowID>()
        while let p = stack.popLast() {
            guard p.isValid, p.index < rows.count, seen.insert(p).inserted, rows[p].passive else { continue }
            for c in rows[p].cells {
                if kind[c.sym] == .dummy { out.append(Int(owner[c.sym])) }
                let br = rowOf[c.sym]
                if br.isValid && rows[br].passive { stack.append(br) }
            }
        }
        return out
    }

    /// The constraint slots behind row `r` for a certificate: those of its basic and of every symbol it holds
    /// (a row the dual simplex could not make feasible).
    func certificateOwners(ofRow r: RowID) -> [Int] {
        certificateOwners(rows[r].basic) + rows[r].cells.flatMap { certificateOwners($0.sym) }
    }

    /// The constraint slots behind symbol `s` for a certificate: its owner, or an aggregate's constraints.
    func certificateOwners(_ s: Sym) -> [Int] {
        // An aggregate (a dummy no constraint owns) whose passive row is gone stands for nothing.
        if kind[s] == .dummy && owner[s] < 0 { return aggregateOwners(s) }
        return [Int(owner[s])]
    }
}
