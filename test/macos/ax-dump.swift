// The reference the backend's tree reads are timed against: a plain Swift walk of an app's AX
// tree that asks each element for the same attributes in one AXUIElementCopyMultipleAttributeValues
// call, as the backend does, with no FFI in between.
//
//   swiftc -O -o ax-dump test/macos/ax-dump.swift && ./ax-dump <pid> [maxNodes] [runs]
//
// Prints one JSON line: {"nodes": N, "medianMs": M}.
import ApplicationServices
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2, let pidValue = Int32(arguments[1]) else {
  FileHandle.standardError.write("usage: ax-dump <pid> [maxNodes] [runs]\n".data(using: .utf8)!)
  exit(2)
}
let maxNodes = arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
let names = ["AXRole", "AXSubrole", "AXTitle", "AXDescription", "AXValue", "AXEnabled", "AXFocused", "AXPosition", "AXSize", "AXChildren"]
let attributes = names as CFArray

func walk(_ element: AXUIElement, _ count: inout Int) {
  if count >= maxNodes { return }
  count += 1
  var values: CFArray?
  let error = AXUIElementCopyMultipleAttributeValues(element, attributes, AXCopyMultipleAttributeOptions(), &values)
  guard error == .success, let array = values, CFArrayGetCount(array) == names.count else { return }
  guard let raw = CFArrayGetValueAtIndex(array, names.count - 1) else { return }
  let children = Unmanaged<CFTypeRef>.fromOpaque(raw).takeUnretainedValue()
  guard CFGetTypeID(children) == CFArrayGetTypeID() else { return }
  let list = children as! CFArray
  for index in 0..<CFArrayGetCount(list) {
    guard let child = CFArrayGetValueAtIndex(list, index) else { continue }
    walk(Unmanaged<AXUIElement>.fromOpaque(child).takeUnretainedValue(), &count)
  }
}

AXUIElementSetMessagingTimeout(AXUIElementCreateSystemWide(), 1.5)
var times: [Double] = []
var nodes = 0
for _ in 0..<runs {
  let start = DispatchTime.now().uptimeNanoseconds
  var count = 0
  walk(AXUIElementCreateApplication(pid_t(pidValue)), &count)
  times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
  nodes = count
}
times.sort()
print("{\"nodes\": \(nodes), \"medianMs\": \(times[times.count / 2])}")
