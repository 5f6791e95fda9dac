import MoaLayout
import XCTest

/// Collects what a trailing `?` prints.
final class Printed {
    var text: [String] = []
}

/// The equation language: every grammar rule (checked through the constraint each line makes, printed back
/// with `description`) and every error message with its kind, line, byte offsets and expectation.
final class ParserTests: XCTestCase {
    var layout: Layout!

    override func setUpWithError() throws {
        layout = try Layout(width: 320, height: 480)
        for name in ["a", "b", "calendar", "label"] { try layout.addView(name) }
        try layout.addView("inner", in: layout["b"])
    }

    /// The description of the single constraint `line` makes.
    func made(_ line: String, file: StaticString = #filePath, lineNo: UInt = #line) -> String {
        do {
            return try layout.eq(line).description
        } catch {
            XCTFail("\(line): \(error)", file: file, line: lineNo)
            return ""
        }
    }

    func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> LayoutError {
        do {
            try layout.eqs(text)
        } catch {
            return error
        }
        XCTFail("no error for: \(text)", file: file, line: line)
        return LayoutError(.internalError, "none")
    }

    // MARK: - Grammar rules

    func testOmittedRightSideIsTheSuperviewsSameAttribute() {
        XCTAssertEqual(made("a.left == 8"), "a.left == root.left + 8")
        XCTAssertEqual(made("a.right == -8"), "a.right == root.right - 8")
        XCTAssertEqual(made("a.centerY == 0"), "a.centerY == root.centerY")
        XCTAssertEqual(made("a.baseline == 3"), "a.baseline == root.baseline + 3")
        XCTAssertEqual(made("a.leadingMargin >= 0"), "a.leadingMargin >= root.leadingMargin")
        XCTAssertEqual(made("inner.top == 4"), "inner.top == b.top + 4", "the superview of the left view")
    }

    func testLoneNumberIsAbsoluteForWidthAndHeight() {
        XCTAssertEqual(made("a.width == 100"), "a.width == 100")
        XCTAssertEqual(made("a.height <= 40.5"), "a.height <= 40.5")
        XCTAssertEqual(made("a.width >= -3"), "a.width >= -3")
    }

    func testViewAndSuperviewKeywords() {
        XCTAssertEqual(made("label.right == view.right - 10"), "label.right == root.right - 10")
        XCTAssertEqual(made("label.left == superview.left + 10"), "label.left == root.left + 10")
        XCTAssertEqual(made("inner.bottom == view.bottom"), "inner.bottom == b.bottom")
        XCTAssertEqual(made("inner.bottom <= view"), "inner.bottom <= b.bottom", "view without attribute")
    }

    func testSecondViewWithoutAttributeMeansTheSameAttribute() {
        XCTAssertEqual(made("a.width == b"), "a.width == b.width")
        XCTAssertEqual(made("a.top == b + 4"), "a.top == b.top + 4")
    }

    func testMultipliersAndConstants() {
        // Priority 10 so that these don't fight each other.
        XCTAssertEqual(made("a.width == b.width * 2 @ 10"), "a.width == b.width * 2 @ 10")
        XCTAssertEqual(made("a.width == b.width * 0.5 + 10 @ 10"), "a.width == b.width * 0.5 + 10 @ 10")
        XCTAssertEqual(made("a.height == b.height / 3 - 1 @ 10"), "a.height == b.height / 3 - 1 @ 10")
        XCTAssertEqual(made("a.centerX == b.centerX * -1 @ 10"), "a.centerX == b.centerX * -1 @ 10")
        XCTAssertEqual(made("a.left == b.right + 1.5e1 @ 10"), "a.left == b.right + 15 @ 10")
        XCTAssertEqual(made("a.width == a.height * 1.5 @ 10"), "a.width == a.height * 1.5 @ 10", "aspect ratio across axes")
        XCTAssertEqual(made("a.left == root.width * 0.25 @ 10"), "a.left == root.width * 0.25 @ 10", "position from a size")
        let c = try? layout.eq("a.top == b.bottom / 4")
        XCTAssertEqual(c?.multiplier, 0.25)
    }

    func testEveryAttributeName() throws {
        for attr in LayoutAttribute.allCases {
            let c = try layout.eq("a.\(attr) == b.\(attr) + 1 @ 10")
            XCTAssertEqual(c.firstAttribute, attr)
            XCTAssertEqual(c.secondAttribute, attr)
            XCTAssertEqual(c.description, "a.\(attr) == b.\(attr) + 1 @ 10")
        }
    }

    func testPriorities() throws {
        XCTAssertEqual(try layout.eq("a.left == 1").priority, 1000, "required by default")
        for (name, value) in LayoutPriority.names {
            let c = try layout.eq("a.top == b.top + 3 @ \(name)")
            XCTAssertEqual(c.priority, value, name)
        }
        XCTAssertEqual(try layout.eq("a.top == 7 @ 600").priority, 600)
        XCTAssertEqual(try layout.eq("a.top == 7 @ 1").priority, 1)
        XCTAssertEqual(try layout.eq("a.top == 7 @ defaultHigh - 1").priority, 749)
        XCTAssertEqual(try layout.eq("a.top == 7 @ low + 1").priority, 251)
        XCTAssertEqual(try layout.eq("a.top == 7 @ high - 1 + 2").priority, 751)
        XCTAssertEqual(try layout.eq("a.top == 7 @ 100 + med").priority, 600)
        XCTAssertEqual(made("a.top == 7 @ 10"), "a.top == root.top + 7 @ 10")
    }

    func testNoSpacesNeeded() {
        XCTAssertEqual(made("a.left==b.right+5@high"), "a.left == b.right + 5 @ 750")
        XCTAssertEqual(made("\ta.left\t>=\tb.left\t-\t2"), "a.left >= b.left - 2")
    }

    func testSize() throws {
        let hs = try layout.eqs("a.size == 30x40")
        XCTAssertEqual(hs.map(\.description), ["a.width == 30", "a.height == 40"])
        XCTAssertEqual(try layout.eqs("b.size >= 10.5x20 @ low").map(\.description),
                       ["b.width >= 10.5 @ 250", "b.height >= 20 @ 250"])
        XCTAssertEqual(try layout.eqs("calendar.size == 50").map(\.description),
                       ["calendar.width == 50", "calendar.height == 50"])
        XCTAssertEqual(try layout.eqs("label.size == a.size * 2 + 1").map(\.description),
                       ["label.width == a.width * 2 + 1", "label.height == a.height * 2 + 1"])
        XCTAssertEqual(try layout.eqs("inner.size <= b").map(\.description), ["inner.width <= b.width", "inner.height <= b.height"])
        try layout.solve()
        XCTAssertEqual(layout["a"]!.frame.width, 30)
        XCTAssertEqual(layout["a"]!.frame.height, 40)
    }

    /// `pin == 8`: top/left `+ 8`, bottom/right `- 8` (RMExtensions' signs); `>=` keeps the insets at least 8,
    /// so bottom/right get `<=`.
    func testPin() throws {
        XCTAssertEqual(try layout.eqs("a.pin == 8").map(\.description),
                       ["a.top == root.top + 8", "a.left == root.left + 8", "a.bottom == root.bottom - 8",
                        "a.right == root.right - 8"])
        XCTAssertEqual(try layout.eqs("b.pin >= 4 @ high").map(\.description),
                       ["b.top >= root.top + 4 @ 750", "b.left >= root.left + 4 @ 750",
                        "b.bottom <= root.bottom - 4 @ 750", "b.right <= root.right - 4 @ 750"])
        XCTAssertEqual(try layout.eqs("inner.pin == view + 2").map(\.description),
                       ["inner.top == b.top + 2", "inner.left == b.left + 2", "inner.bottom == b.bottom - 2",
                        "inner.right == b.right - 2"])
        XCTAssertEqual(try layout.eqs("label.pin == safeArea.pin").map(\.description),
                       ["label.top == safeArea.top", "label.left == safeArea.left", "label.bottom == safeArea.bottom",
                        "label.right == safeArea.right"])
        try layout.solve()
        assertFrame(layout["a"], 8, 8, 304, 464)
    }

    func testContentPriorities() throws {
        let label = layout["label"]!
        try label.setIntrinsicSize(width: 100, height: 20)
        let h = try layout.eq("label.hugH == low + 1")
        XCTAssertEqual(h.description, "label.width <= 100 @ 251")
        XCTAssertEqual(label.contentHuggingPriority(for: .horizontal), 251)
        try layout.eqs("""
            label.hugV == 300
            label.resistH == high
            label.resistV == 700
            """)
        XCTAssertEqual(label.contentHuggingPriority(for: .vertical), 300)
        XCTAssertEqual(label.compressionResistancePriority(for: .horizontal), 750)
        XCTAssertEqual(label.compressionResistancePriority(for: .vertical), 700)
        try layout.eqs("label.compressH == 600\nlabel.compressV == fit")
        XCTAssertEqual(label.compressionResistancePriority(for: .horizontal), 600)
        XCTAssertEqual(label.compressionResistancePriority(for: .vertical), 50)
        // Without an intrinsic size the priority is kept; the handle is inactive until there is a size.
        let c = try layout.eq("a.hugV == 10")
        XCTAssertFalse(c.isActive)
        try layout["a"]!.setIntrinsicSize(width: nil, height: 5)
        XCTAssertTrue(c.isActive)
        XCTAssertEqual(c.description, "a.height <= 5 @ 10")
    }

    func testCommentsBlankLinesAndLineEndings() throws {
        let hs = try layout.eqs("""
            # a comment line

            a.left == 1   # the left edge
               a.top == 2#tight
            \r
            """)
        XCTAssertEqual(hs.map(\.description), ["a.left == root.left + 1", "a.top == root.top + 2"])
        XCTAssertEqual(hs.map(\.line), [3, 4])
        XCTAssertEqual(hs[0].sourceText, "a.left == 1   # the left edge")
        let crlf = try layout.eqs("b.left == 1\r\nb.top == 2\r\n")
        XCTAssertEqual(crlf.map(\.line), [1, 2])
        XCTAssertEqual(try layout.eqs("").count, 0)
        XCTAssertEqual(try layout.eqs("# only\n\n").count, 0)
    }

    func testLineNumbersSourceAndFirstLine() throws {
        let hs = try layout.eqs("a.left == 1\n\nb.left == 2", source: "screen.moa", firstLine: 40)
        XCTAssertEqual(hs.map(\.line), [40, 42])
        XCTAssertEqual(hs[1].source, "screen.moa")
        XCTAssertEqual(hs[1].located, "`b.left == root.left + 2` (screen.moa:42)")
        XCTAssertNil(try layout.eq("a.top == 0").line, "eq has no line")
    }

    func testQuestionMarkPrintsTheInterpretation() throws {
        let out = Printed()
        layout.debugOutput = { out.text.append($0) }
        try layout.eqs("a.left == 1\ntable_.left == 1 ?".replacingAll("table_.left == 1 ?", with: "label.leading == b.trailing + 8 @ high ?"))
        XCTAssertEqual(out.text, ["""
            ? line 2: label.leading == b.trailing + 8 @ high ?
              interpreted: label.leading == b.trailing * 1 + 8 @ 750  (left-to-right)
              solver:      label.minX - b.minX - b.width - 8 == 0 @ 750
              status:      created constraint #\(layout.constraints.last!.id)

            """])
        out.text = []
        try layout.eq("label.leading == b.trailing + 9 @ high ?")
        XCTAssertTrue(out.text[0].hasPrefix("? eq: label.leading == b.trailing + 9 @ high ?\n"), out.text[0])
        XCTAssertTrue(out.text[0].contains("status:      updated the constant of constraint #"), out.text[0])
        out.text = []
        try layout.eq("label.hugH == low ?")
        XCTAssertTrue(out.text[0].contains("interpreted: hugging of label, horizontal = 250"), out.text[0])
        out.text = []
        try layout.xeq("label.leading == b.trailing @ high ?")
        XCTAssertTrue(out.text[0].contains("removed:     label.leading == b.trailing + 9 @ 750"), out.text[0])
        out.text = []
        // A line that fails still prints, with the reason.
        _ = error("a.width == 10 ?\na.width >= 20 ?")
        XCTAssertEqual(out.text.count, 2)
        XCTAssertTrue(out.text[1].contains("status:      failed: required constraint"), out.text[1])
    }

    // MARK: - Errors: the lexer

    func testBadCharacter() {
        let e = error("a.left == 8\na.left == 8 % 2")
        XCTAssertEqual(e.kind, .parse)
        XCTAssertEqual(e.message, "unexpected character `%`")
        XCTAssertEqual(e.line, 2)
        XCTAssertEqual(e.offset, 12)
        XCTAssertEqual(e.textOffset, 12 + 12)
        XCTAssertEqual(e.sourceLine, "a.left == 8 % 2")
        XCTAssertEqual(e.description, """
            line 2, byte 12: unexpected character `%`
                a.left == 8 % 2
                            ^
            """)
        let u = error("a.left == é")
        XCTAssertEqual(u.message, "unexpected character `é`")
        XCTAssertEqual(u.length, 2, "one whole UTF-8 scalar")
    }

    func testBadNumbers() {
        var e = error("a.left == 30px")
        XCTAssertEqual(e.message, "bad number `30px`")
        XCTAssertEqual(e.offset, 10)
        XCTAssertEqual(e.length, 4)
        e = error("a.left == 1.5.2")
        XCTAssertEqual(e.message, "bad number `1.5.2`")
        e = error("a.left == 1e400")
        XCTAssertEqual(e.kind, .invalid)
        XCTAssertEqual(e.message, "number `1e400` is too large (the limit is 1e12)")
        e = error("a.left == 2e12")
        XCTAssertEqual(e.message, "number `2e12` is too large (the limit is 1e12)")
        e = error("a.size == 30x")
        XCTAssertEqual(e.kind, .parse)
        XCTAssertEqual(e.message, "bad size `30x`: expected a height after `x`")
        XCTAssertEqual(e.offset, 13)
        XCTAssertEqual(e.expected, ["a number (the height)"])
        e = error("a.size == 30x40y")
        XCTAssertEqual(e.message, "bad number `30x40y`")
        // Long digit strings take the general path (the short-number fast path must not overflow on them).
        e = error("a.left == " + String(repeating: "9", count: 40))
        XCTAssertEqual(e.kind, .invalid)
        e = error("a.left == 1000000000001")
        XCTAssertEqual(e.message, "number `1000000000001` is too large (the limit is 1e12)")
    }

    /// Plain numbers read without `strtod` read exactly as `strtod` does.
    func testNumbersReadAsStrtodDoes() throws {
        for text in ["0", "7", "12.5", "0.1", "0.3", "1.0000000000001", "123456.789012345", "999999999999",
                     "0.000000000000001", "1000000000000", "3.14159265358979", "1e3", "2.5E-2", "123456789012.125", "0.123456789012345"] {
            let c = try layout.eq("a.left == \(text)")
            XCTAssertEqual(c.constant, Double(text)!, text)
            try layout.remove(c)
        }
    }

    // MARK: - Errors: the parser

    func testParseErrorsAtEachPosition() {
        var e = error("  ?")
        XCTAssertEqual(e.message, "expected an equation before `?`")
        XCTAssertEqual(e.offset, 2)

        e = error("8 == a.left")
        XCTAssertEqual(e.message, "expected a view name at the start of the equation, found `8`")
        XCTAssertEqual(e.expected, ["a view name"])

        e = error("a == 8")
        XCTAssertEqual(e.message, "expected `.` and an attribute after `a`, found `==`")
        XCTAssertEqual(e.offset, 2)
        XCTAssertEqual(e.expected, ["`.`"])

        e = error("a. == 8")
        XCTAssertEqual(e.message, "expected an attribute name after `a.`, found `==`")
        XCTAssertEqual(e.offset, 3)

        e = error("a.left = 8")
        XCTAssertEqual(e.message, "expected a relation (`==`, `<=` or `>=`), found `=` (did you mean `==`?)")
        XCTAssertEqual(e.expected, ["`==`", "`<=`", "`>=`"])
        XCTAssertEqual(e.offset, 7)
        e = error("a.left < 8")
        XCTAssertEqual(e.message, "expected a relation (`==`, `<=` or `>=`), found `<` (did you mean `<=`?)")
        e = error("a.left > 8")
        XCTAssertEqual(e.message, "expected a relation (`==`, `<=` or `>=`), found `>` (did you mean `>=`?)")

        e = error("a.left 8")
        XCTAssertEqual(e.message, "expected a relation (`==`, `<=` or `>=`) after `a.left`, found `8`")
        e = error("a.left")
        XCTAssertEqual(e.message, "expected a relation (`==`, `<=` or `>=`) after `a.left`, found the end of the line")
        XCTAssertEqual(e.offset, 6)

        e = error("a.left == @ high")
        XCTAssertEqual(e.message, "expected a view, a number or a size after the relation, found `@`")
        XCTAssertEqual(e.expected, ["a view name", "a number", "a size such as `30x40`"])
        e = error("a.left ==")
        XCTAssertEqual(e.message, "expected a view, a number or a size after the relation, found the end of the line")

        e = error("a.left == -")
        XCTAssertEqual(e.message, "expected a number after the relation, found the end of the line")

        e = error("a.left == b.")
        XCTAssertEqual(e.message, "expected an attribute name after `b.`, found the end of the line")
        XCTAssertEqual(e.offset, 12)

        e = error("a.left == b.left * x")
        XCTAssertEqual(e.message, "expected a number after `*`, found `x`")
        e = error("a.left == b.left / ")
        XCTAssertEqual(e.message, "expected a number after `/`, found the end of the line")
        e = error("a.left == b.left + c")
        XCTAssertEqual(e.message, "expected a number after `+`, found `c`")
        e = error("a.left == b.left - -3")
        XCTAssertEqual(e.message, "expected a number after `-`, found `-`")

        e = error("a.width == b.width / 0")
        XCTAssertEqual(e.kind, .invalid)
        XCTAssertEqual(e.message, "division by zero")
        XCTAssertEqual(e.offset, 21)
    }

    func testTrailingTokensAreErrors() {
        var e = error("a.left == b.left + 5 6")
        XCTAssertEqual(e.kind, .parse)
        XCTAssertEqual(e.message, "unexpected `6` after the equation")
        XCTAssertEqual(e.offset, 21)
        XCTAssertEqual(e.expected, ["`@`", "`?`", "`#`", "the end of the line"])
        e = error("a.left == b.left c")
        XCTAssertEqual(e.message, "unexpected `c` after the equation")
        XCTAssertEqual(e.expected, ["`*`", "`/`", "`+`", "`-`", "`@`", "`?`", "`#`", "the end of the line"])
        e = error("a.left == b c")
        XCTAssertEqual(e.expected, ["`.`", "`*`", "`/`", "`+`", "`-`", "`@`", "`?`", "`#`", "the end of the line"])
        e = error("a.width == 100 + 5")
        XCTAssertEqual(e.message, "unexpected `+` after the equation")
        XCTAssertEqual(e.expected, ["`@`", "`?`", "`#`", "the end of the line"])
        e = error("a.left == 8 @ high ? ?")
        XCTAssertEqual(e.message, "unexpected `?` after the equation")
        XCTAssertEqual(e.expected, ["`#`", "the end of the line"])
        e = error("a.left == 8 @ high low")
        XCTAssertEqual(e.message, "unexpected `low` after the equation")
        XCTAssertEqual(e.expected, ["`?`", "`#`", "the end of the line"])
        e = error("a.hugH == low @ high")
        XCTAssertEqual(e.message, "unexpected `@` after the equation")
        XCTAssertEqual(e.expected, ["`?`", "`#`", "the end of the line"])
    }

    func testPriorityErrors() {
        var e = error("a.left == 8 @ 1001")
        XCTAssertEqual(e.kind, .invalid)
        XCTAssertEqual(e.message, "priority 1001 is outside 1...1000")
        XCTAssertEqual(e.offset, 14)
        e = error("a.left == 8 @ required + 1")
        XCTAssertEqual(e.message, "priority 1001 is outside 1...1000")
        XCTAssertEqual(e.length, 12)
        e = error("a.left == 8 @ 0")
        XCTAssertEqual(e.message, "priority 0 is outside 1...1000")
        e = error("a.left == 8 @ minNonZero - 1")
        XCTAssertEqual(e.message, "priority 0 is outside 1...1000")
        e = error("a.left == 8 @ hihg")
        XCTAssertEqual(e.kind, .parse)
        XCTAssertEqual(e.message, "unknown priority `hihg` (did you mean `high`?)")
        XCTAssertEqual(e.suggestion, "high")
        e = error("a.left == 8 @ defaulthigh")
        XCTAssertEqual(e.message, "unknown priority `defaulthigh` (did you mean `defaultHigh`?)")
        e = error("a.left == 8 @ bananas")
        XCTAssertEqual(e.message, "unknown priority `bananas`")
        XCTAssertNil(e.suggestion)
        e = error("a.left == 8 @")
        XCTAssertEqual(e.message, "expected a priority (a number or a name such as `high`) after `@`, found the end of the line")
        e = error("a.left == 8 @ high -")
        XCTAssertEqual(e.message, "expected a priority (a number or a name such as `high`) after `-`, found the end of the line")
        e = error("a.hugH <= low")
        XCTAssertEqual(e.kind, .invalid)
        XCTAssertEqual(e.message, "`hugH` sets a priority and takes `==`, not `<=`")
        e = error("a.resistV == 2000")
        XCTAssertEqual(e.message, "priority 2000 is outside 1...1000")
        e = error("a.hugV == b")
        XCTAssertEqual(e.message, "unknown priority `b`")
    }

    // MARK: - Errors: names

    func testUnknownViews() {
        var e = error("a.left == 0\ncalender.top == 0")
        XCTAssertEqual(e.kind, .unknownView)
        XCTAssertEqual(e.message, "unknown view `calender` (did you mean `calendar`?)")
        XCTAssertEqual(e.suggestion, "calendar")
        XCTAssertEqual(e.line, 2)
        XCTAssertEqual(e.offset, 0)
        XCTAssertEqual(e.length, 8)
        XCTAssertEqual(e.textOffset, 12)
        XCTAssertEqual(e.description, """
            line 2, byte 0: unknown view `calender` (did you mean `calendar`?)
                calender.top == 0
                ^~~~~~~~
            """)
        e = error("a.top == Calendar.bottom")
        XCTAssertEqual(e.message, "unknown view `Calendar` (did you mean `calendar`?)")
        XCTAssertEqual(e.offset, 9)
        e = error("a.top == zzzzzz.bottom")
        XCTAssertEqual(e.message, "unknown view `zzzzzz`")
        XCTAssertNil(e.suggestion)
        e = error("a.top == supervew.top")
        XCTAssertEqual(e.message, "unknown view `supervew` (did you mean `superview`?)")
    }

    /// Hostile input: an error about a huge name or a huge line stays small. The message keeps its start and
    /// end around a note of what was left out; the description shows the line around the offending token, with
    /// the caret under it; the offsets and the whole line stay exact in the error's fields.
    func testErrorsAboutHugeTextStaySmall() {
        let name = String(repeating: "x", count: 100_000)
        var e = error("a.left == 0\n\(name).top == 0")
        XCTAssertEqual(e.kind, .unknownView)
        XCTAssertLessThanOrEqual(e.message.utf8.count, 512 + 40)
        XCTAssertTrue(e.message.hasPrefix("unknown view `xxx"), e.message)
        XCTAssertTrue(e.message.hasSuffix("xxx`"), e.message)
        XCTAssertTrue(e.message.contains("bytes left out)"), e.message)
        XCTAssertEqual(e.length, 100_000)
        XCTAssertEqual(e.sourceLine?.utf8.count, 100_009)
        XCTAssertLessThan(e.description.utf8.count, 1200)

        // An unknown view far into a long line: the window around it, cut ends marked, caret under the name.
        let pad = String(repeating: " ", count: 9000)   // 9000 blanks before the bad name
        e = error("a.top ==\(pad)calender.bottom + 1 \(String(repeating: "# and a long comment ", count: 50))")
        XCTAssertEqual(e.offset, 8 + 9000)
        let lines = e.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines[1].hasPrefix("    …"), lines[1])
        XCTAssertTrue(lines[1].hasSuffix("…"), lines[1])
        XCTAssertLessThanOrEqual(lines[1].utf8.count, 4 + 3 + LayoutError.lineWindow + 3)
        let caret = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) }
        let token = lines[1].range(of: "calender").map { lines[1].distance(from: lines[1].startIndex, to: $0.lowerBound) }
        XCTAssertNotNil(caret)
        XCTAssertEqual(caret, token)
        XCTAssertTrue(lines[2].hasSuffix(" ^" + String(repeating: "~", count: "calender".count - 1)), lines[2])

        // Short lines are shown whole, as before.
        e = error("calender.top == 0")
        XCTAssertFalse(e.description.contains("…"))
    }

    func testViewKeywordOnTheLeftAndRootWithoutSuperview() {
        var e = error("view.left == 0")
        XCTAssertEqual(e.kind, .invalid)
        XCTAssertEqual(e.message, "`view` names the superview of the left view and cannot be the left view itself")
        e = error("superview.left == a.left")
        XCTAssertEqual(e.message, "`superview` names the superview of the left view and cannot be the left view itself")
        e = error("root.left == 8")
        XCTAssertEqual(e.message, "`root` has no superview, so the right side must name a view")
        e = error("root.top == view.top")
        XCTAssertEqual(e.message, "`root` has no superview, so the right side must name a view")
        XCTAssertEqual(e.offset, 12)
        e = error("root.pin == 8")
        XCTAssertEqual(e.message, "`root` has no superview, so the right side must name a view")
    }

    func testUnknownAttributes() {
        var e = error("a.centrX == 0")
        XCTAssertEqual(e.kind, .unknownAttribute)
        XCTAssertEqual(e.message, "unknown attribute `centrX` (did you mean `centerX`?)")
        XCTAssertEqual(e.suggestion, "centerX")
        XCTAssertEqual(e.offset, 2)
        e = error("a.left == b.rigth")
        XCTAssertEqual(e.message, "unknown attribute `rigth` (did you mean `right`?)")
        XCTAssertEqual(e.offset, 12)
        e = error("a.widht == 3")
        XCTAssertEqual(e.message, "unknown attribute `widht` (did you mean `width`?)")
        e = error("a.hugh == low")
        XCTAssertEqual(e.message, "unknown attribute `hugh` (did you mean `hugH`?)")
        e = error("a.sise == 3x3")
        XCTAssertEqual(e.message, "unknown attribute `sise` (did you mean `size`?)")
        e = error("a.frobnicate == 1")
        XCTAssertEqual(e.message, "unknown attribute `frobnicate`")
        XCTAssertNil(e.suggestion)
        XCTAssertEqual(e.expected.count, 1)
    }

    func testAttributePairingErrors() {
        var e = error("a.left == b.top")
        XCTAssertEqual(e.kind, .invalid)
        XCTAssertEqual(e.message, "cannot relate `left` (horizontal) to `top` (vertical)")
        XCTAssertEqual(e.offset, 12)
        e = error("a.height == b.centerX")
        XCTAssertEqual(e.message, "cannot relate `height` (vertical) to `centerX` (horizontal)")
        e = error("a.leading == b.left")
        XCTAssertEqual(e.message, "cannot relate `leading` to `left`: leading/trailing and left/right don't mix")
        e = error("a.rightMargin == b.trailingMargin")
        XCTAssertEqual(e.message, "cannot relate `rightMargin` to `trailingMargin`: leading/trailing and left/right don't mix")
        e = error("a.width == b.size")
        XCTAssertEqual(e.message, "`size` cannot be on the right of `.width`")
        e = error("a.width == 30x40")
        XCTAssertEqual(e.message, "a size such as `30x40` goes with `.size`, not `.width`")
        XCTAssertEqual(e.offset, 11)
    }

    func testShorthandErrors() {
        var e = error("a.size == b.width")
        XCTAssertEqual(e.kind, .invalid)
        XCTAssertEqual(e.message, "`size` relates to another view's `size`, not `width`")
        e = error("a.pin == b.left")
        XCTAssertEqual(e.message, "`pin` pins to another view's edges: write `a.pin == b + 8`")
        e = error("a.pin == b * 2")
        XCTAssertEqual(e.message, "`pin` takes no multiplier")
        e = error("a.pin == 3x4")
        XCTAssertEqual(e.message, "`pin` takes an inset such as `8`, not a size")
    }

    func testEqAndXeqErrors() {
        var e = expectError { _ = try layout.eq("a.left == 0\nb.left == 0") }
        XCTAssertEqual(e?.kind, .invalid)
        XCTAssertEqual(e?.message, "eq takes one equation; use eqs for several lines")
        XCTAssertEqual(e?.line, 2)
        e = expectError { _ = try layout.eq("   # nothing") }
        XCTAssertEqual(e?.message, "no equation in the line (it is blank or a comment)")
        e = expectError { _ = try layout.eq("") }
        XCTAssertEqual(e?.message, "no equation in the line (it is blank or a comment)")
        e = expectError { _ = try layout.eq("a.size == 3x4") }
        XCTAssertEqual(e?.message, "`size` makes 2 constraints; use eqs")
        e = expectError { _ = try layout.eq("a.pin == 3") }
        XCTAssertEqual(e?.message, "`pin` makes 4 constraints; use eqs")
        XCTAssertEqual(e?.offset, 2)
        e = expectError { _ = try layout.eq("a.left == 0 junk") }
        XCTAssertEqual(e?.line, 1)
        XCTAssertEqual(e?.offset, 12)
        e = expectError { _ = try layout.xeq("a.hugH == low") }
        XCTAssertEqual(e?.message, "`hugH` sets a priority; there is no constraint to remove")
        e = expectError { _ = try layout.xeq("a.left == b.right + 3 @ high") }
        XCTAssertEqual(e?.kind, .notFound)
        XCTAssertEqual(e?.message, "no constraint `a.left == b.right @ 750` to remove (the constant is not compared)")
        e = expectError { _ = try layout.xeq("") }
        XCTAssertEqual(e?.message, "no equation in the line (it is blank or a comment)")
        e = expectError { _ = try layout.xeq("a.left == nope.left") }
        XCTAssertEqual(e?.kind, .unknownView)
    }

    /// A parse error anywhere in `eqs` means nothing from the call is applied, even lines before it.
    func testParseErrorAppliesNothing() {
        let before = layout.allConstraints.count
        let e = error("a.left == 0\na.top == 0\na.width == 10 junk")
        XCTAssertEqual(e.line, 3)
        XCTAssertEqual(e.textOffset, 12 + 11 + 14)
        XCTAssertEqual(layout.allConstraints.count, before)
        XCTAssertTrue(layout.constraints.isEmpty)
    }
}
