// Moa — the inspector: the layout as one self-contained HTML page (InspectorPage.swift) with its data as JSON:
// every view's frames, every constraint as equation text with its line, the diagnostics (recent conflicts,
// violations, ambiguities) and a recorded motion trace for the timeline. Strings only; the caller writes files.

extension Layout {
    /// The inspector page: one self-contained HTML file (no network) that draws the layout to scale. Hovering a
    /// view shows its frames (in the superview and in root space) and every constraint that touches it as
    /// equation text with its line; clicking a constraint highlights its views; panels list the recent
    /// conflicts (`recentConflicts`), the optional constraints given up (`violatedConstraints()`) and the
    /// ambiguities (`ambiguities()`); a `trace` (e.g. `Animator.stopRecording()`) plays on a timeline slider.
    /// Solves first if needed.
    /// - Parameters:
    ///   - title: the page's title.
    ///   - trace: the motion to play; nil or fewer than two snapshots shows no timeline.
    /// - Complexity: O(views + constraints × terms) plus the diagnostics' cost (near-linear).
    public func html(title: String = "Moa layout", trace: FrameTrace? = nil) -> String {
        // `<` as \u003c keeps `</script>` in a name or equation from ending the data block.
        var data = ""
        for u in inspectorJSON(title: title, trace: trace).unicodeScalars {
            if u == "<" { data += "\\u003c" } else { data.unicodeScalars.append(u) }
        }
        let page = Array(inspectorPageTemplate.utf8), token = Array("__MOA_DATA__".utf8)
        guard let at = (0...(page.count - token.count)).first(where: { page[$0..<$0 + token.count].elementsEqual(token) })
        else { return inspectorPageTemplate }
        return String(decoding: page[..<at], as: UTF8.self) + data
            + String(decoding: page[(at + token.count)...], as: UTF8.self)
    }

    /// The inspector's data as one JSON object (the schema is in InspectorPage.swift's header): `root`,
    /// `views` in hierarchy order (guides included) with `frame`, `rootFrame`, `text` and the ids of the
    /// constraints touching them, `constraints` (every live one, active or not, with `equation`, `line`,
    /// `source`, `sourceText`, `note`, `priority`, `active`, `views`, `violation`), `violations`,
    /// `ambiguities`, `conflicts` and `trace`. Numbers have up to 3 decimals; non-finite ones are `null`.
    public func inspectorJSON(title: String = "Moa layout", trace: FrameTrace? = nil) -> String {
        _ = try? layoutIfNeeded()   // a failing measure keeps the last frames
        let violations = violatedConstraints()
        var offBy: [Int: Double] = [:]
        for v in violations { offBy[v.constraint.id] = v.amount }
        let constraints = allConstraints
        var touching: [ObjectIdentifier: [Int]] = [:]
        for c in constraints {
            touching[ObjectIdentifier(c.firstView), default: []].append(c.id)
            if let s = c.secondView, s !== c.firstView { touching[ObjectIdentifier(s), default: []].append(c.id) }
        }

        var out = "{\"title\":\(jsonString(title)),\"generator\":\"Moa\","
        out += "\"root\":{\"width\":\(jsonNumber(rootWidth)),\"height\":\(jsonNumber(rootHeight))},\n\"views\":["
        var first = true
        forEachViewInHierarchy(includeGuides: true) { v in
            out += first ? "\n" : ",\n"
            first = false
            let kind = v.isRoot ? "root" : v.isGuide ? "guide" : "view"
            let text = v.text == nil ? nil : (try? textLines(of: v))?.lines.joined(separator: "\n")
            let ids = (touching[ObjectIdentifier(v)] ?? []).map(String.init).joined(separator: ",")
            out += "{\"name\":\(jsonString(v.name)),\"superview\":\(jsonOptional(v.superview?.name)),"
                + "\"depth\":\(v.depth),\"kind\":\"\(kind)\",\"frame\":\(jsonRect(v.frame)),"
                + "\"rootFrame\":\(jsonRect(v.frameInRoot)),\"text\":\(jsonOptional(text)),\"constraints\":[\(ids)]}"
        }
        out += "],\n\"constraints\":["
        for (i, c) in constraints.enumerated() {
            var names = [c.firstView.name]
            if let s = c.secondView, s !== c.firstView { names.append(s.name) }
            out += (i == 0 ? "\n" : ",\n")
                + "{\"id\":\(c.id),\"equation\":\(jsonString(c.description)),\"line\":\(c.line.map(String.init) ?? "null"),"
                + "\"source\":\(jsonOptional(c.source)),\"sourceText\":\(jsonOptional(c.sourceText)),"
                + "\"note\":\(jsonOptional(c.note)),\"priority\":\(jsonNumber(c.priority)),\"active\":\(c.isActive),"
                + "\"views\":[\(names.map(jsonString).joined(separator: ","))],\"violation\":\(jsonNumber(offBy[c.id] ?? 0))}"
        }
        out += "],\n\"violations\":["
        out += violations.map { "{\"constraint\":\($0.constraint.id),\"amount\":\(jsonNumber($0.amount))}" }
            .joined(separator: ",")
        out += "],\n\"ambiguities\":["
        out += ambiguities().map {
            "{\"view\":\(jsonString($0.view.name)),\"variable\":\(jsonString("\($0.view.name).\($0.variable)")),"
                + "\"meaning\":\(jsonString($0.variable.meaning))}"
        }.joined(separator: ",")
        out += "],\n\"conflicts\":["
        out += recentConflicts.map { e in
            let with = e.conflicts.map { "{\"equation\":\(jsonString($0.equation)),\"line\":\($0.line.map(String.init) ?? "null")}" }
            return "{\"message\":\(jsonString(e.message)),\"equation\":\(jsonOptional(e.constraint?.equation)),"
                + "\"line\":\(e.line.map(String.init) ?? "null"),\"with\":[\(with.joined(separator: ","))]}"
        }.joined(separator: ",")
        out += "],\n\"trace\":["
        for (i, snap) in (trace?.snapshots ?? []).enumerated() {
            out += (i == 0 ? "\n" : ",\n") + "{\"time\":\(jsonNumber(snap.time, decimals: 6)),\"frames\":["
            out += snap.views.map { "{\"name\":\(jsonString($0.name)),\"rootFrame\":\(jsonRect($0.frameInRoot))}" }
                .joined(separator: ",")
            out += "]}"
        }
        return out + "]}\n"
    }
}
