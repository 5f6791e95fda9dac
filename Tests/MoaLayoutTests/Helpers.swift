import MoaLayout
import XCTest

/// Asserts a frame to within 1e-6, naming the view on failure.
func assertFrame(_ v: View?, _ x: Double, _ y: Double, _ w: Double, _ h: Double, inRoot: Bool = false,
                 file: StaticString = #filePath, line: UInt = #line) {
    guard let v else { return XCTFail("no view", file: file, line: line) }
    let f = inRoot ? v.frameInRoot : v.frame
    let want = Rect(x: x, y: y, width: w, height: h)
    XCTAssertTrue(f.isClose(to: want, tolerance: 1e-6), "\(v.name): \(f) != \(want)", file: file, line: line)
}

/// Runs `body`, expecting a `LayoutError`; returns it.
func expectError(_ body: () throws -> Void, file: StaticString = #filePath,
                 line: UInt = #line) -> LayoutError? {
    do {
        try body()
        XCTFail("expected an error", file: file, line: line)
        return nil
    } catch let error as LayoutError {
        return error
    } catch {
        XCTFail("not a LayoutError: \(error)", file: file, line: line)
        return nil
    }
}
