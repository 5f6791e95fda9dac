// moa-fuzz: libFuzzer targets over Moa's C API (Include/moa.h, called through the CMoa module, so the exact
// @_cdecl entry points a C host uses are exercised).
//
//   moa-fuzz <target> [libFuzzer options and corpus dirs]     built with -DMOA_FUZZ -sanitize=fuzzer,address
//   moa-fuzz <target> FILE|DIR ...                            any other build: replay inputs through the checks
//
// Targets: parser (equation text), solver (raw solver call streams), layout (layout call streams). Any broken
// invariant aborts with a message; MOA_FUZZ_TRACE=1 also prints the operations that led to it.
// See mk/reliability.mk (`make fuzz`, `make test-fuzz`).

import MoaFuzzShim

#if canImport(Glibc)
import Glibc
#endif

let targets: [String: (UnsafePointer<UInt8>?, Int) -> Void] = [
    "parser": runParser,
    "solver": runSolver,
    "layout": runLayout,
]

nonisolated(unsafe) var selected: (UnsafePointer<UInt8>?, Int) -> Void = runParser

func runOne(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    if getenv("MOA_FUZZ_TRACE") != nil { currentLog = [] }
    selected(data, size)
    currentLog = nil
}

@_cdecl("moa_fuzz_one")
public func moa_fuzz_one(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runOne(data, size)
    return 0
}

let args = CommandLine.arguments
guard args.count >= 2, let target = targets[args[1]] else {
    printError("usage: moa-fuzz parser|solver|layout [libFuzzer options | input files and directories]\n")
    exit(2)
}
selected = target

#if MOA_FUZZ
// libFuzzer parses the rest of the command line (argv[0] stays the program).
var rest: [String] = [args[0]] + args.dropFirst(2)
var cargs: [UnsafeMutablePointer<CChar>?] = rest.map { strdup($0) } + [nil]
var argc = Int32(rest.count)
let status = cargs.withUnsafeMutableBufferPointer { buf -> Int32 in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buf.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        runOne(data, size)
        return 0
    }
}
exit(status)
#else
// Replay: every file named, and every file in every directory named (a corpus, or crash files).
var files: [String] = []
for path in args.dropFirst(2) {
    if let dir = opendir(path) {
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if !name.hasPrefix(".") { files.append(path + "/" + name) }
        }
        closedir(dir)
    } else {
        files.append(path)
    }
}
for file in files.sorted() {
    guard let f = fopen(file, "rb") else { printError("moa-fuzz: cannot open \(file)\n"); exit(2) }
    var bytes: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        bytes += buf.prefix(n)
    }
    fclose(f)
    bytes.withUnsafeBufferPointer { runOne($0.baseAddress, $0.count) }
}
print("moa-fuzz \(args[1]): \(files.count) inputs replayed, no invariant broken")
#endif
