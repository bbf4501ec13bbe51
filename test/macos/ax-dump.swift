// The reference the backend's tree reads are timed against: a plain Swift walk of an app's AX
// tree, with no FFI in between, that makes the backend's reads (src/core/platform/darwin/tree-walk.ts):
// - the app's own batch without AXChildren, then its windows from AXWindows (not AXChildren, which
//   adds the menu bar);
// - one AXUIElementCopyMultipleAttributeValues per element with the backend's attribute list
//   (NODE_ATTRIBUTES, handed in by the test, AXChildren last), and the children from that batch;
// - AXValue on its own for the elements whose value the backend reads (handed in as AX roles and
//   subroles, from readsValue), never for a secure field.
// Not replicated: the backend counts and pages the children of AXScrollArea and list roles instead
// of batching them, and retries failed batches. The ratio it prints is "this walk against the
// backend's", not "the same calls": on a tree with big lists the two walks differ.
//
//   swiftc -O -o ax-dump test/macos/ax-dump.swift
//   ./ax-dump <pid> <maxNodes> <runs> <attributes,comma,separated> <value,roles> <value,subroles>
//
// Prints one JSON line: {"nodes": N, "medianMs": M}.
import ApplicationServices
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 7, let pidValue = Int32(arguments[1]), let maxNodes = Int(arguments[2]), let runs = Int(arguments[3]) else {
  FileHandle.standardError.write("usage: ax-dump <pid> <maxNodes> <runs> <attributes> <valueRoles> <valueSubroles>\n".data(using: .utf8)!)
  exit(2)
}
let names = arguments[4].split(separator: ",").map(String.init)
let valueRoles = Set(arguments[5].split(separator: ",").map(String.init))
let valueSubroles = Set(arguments[6].split(separator: ",").map(String.init))
guard names.last == "AXChildren", let roleSlot = names.firstIndex(of: "AXRole"), let subroleSlot = names.firstIndex(of: "AXSubrole") else {
  FileHandle.standardError.write("the attributes must hold AXRole and AXSubrole, and end with AXChildren\n".data(using: .utf8)!)
  exit(2)
}
let withChildren = names as CFArray
let withoutChildren = Array(names.dropLast()) as CFArray

func slotText(_ array: CFArray, _ index: Int) -> String? {
  guard index < CFArrayGetCount(array), let raw = CFArrayGetValueAtIndex(array, index) else { return nil }
  let value = Unmanaged<CFTypeRef>.fromOpaque(raw).takeUnretainedValue()
  return CFGetTypeID(value) == CFStringGetTypeID() ? (value as! String) : nil
}

/** The element's batch; its AXValue when the backend would read it; the children it brought, borrowed from `values`. */
func visit(_ element: AXUIElement, _ names: CFArray, _ count: inout Int) -> CFArray? {
  count += 1
  var values: CFArray?
  guard AXUIElementCopyMultipleAttributeValues(element, names, AXCopyMultipleAttributeOptions(), &values) == .success, let array = values else { return nil }
  let role = slotText(array, roleSlot) ?? ""
  let subrole = slotText(array, subroleSlot)
  let secure = role == "AXSecureTextField" || subrole == "AXSecureTextField"
  if !secure && (valueRoles.contains(role) || subrole.map { valueSubroles.contains($0) } == true) {
    var value: CFTypeRef?
    _ = AXUIElementCopyAttributeValue(element, "AXValue" as CFString, &value)
  }
  return array
}

func walk(_ element: AXUIElement, _ count: inout Int) {
  if count >= maxNodes { return }
  guard let array = visit(element, withChildren, &count) else { return }
  let last = CFArrayGetCount(array) - 1
  guard last == names.count - 1, let raw = CFArrayGetValueAtIndex(array, last) else { return }
  let children = Unmanaged<CFTypeRef>.fromOpaque(raw).takeUnretainedValue()
  guard CFGetTypeID(children) == CFArrayGetTypeID() else { return }
  let list = children as! CFArray
  for index in 0..<CFArrayGetCount(list) {
    guard let child = CFArrayGetValueAtIndex(list, index) else { continue }
    walk(Unmanaged<AXUIElement>.fromOpaque(child).takeUnretainedValue(), &count)
  }
}

func walkApp(_ app: AXUIElement, _ count: inout Int) {
  _ = visit(app, withoutChildren, &count)
  var windows: CFTypeRef?
  guard AXUIElementCopyAttributeValue(app, "AXWindows" as CFString, &windows) == .success, let list = windows, CFGetTypeID(list) == CFArrayGetTypeID() else { return }
  let array = list as! CFArray
  for index in 0..<CFArrayGetCount(array) {
    guard let window = CFArrayGetValueAtIndex(array, index) else { continue }
    walk(Unmanaged<AXUIElement>.fromOpaque(window).takeUnretainedValue(), &count)
  }
}

AXUIElementSetMessagingTimeout(AXUIElementCreateSystemWide(), 1.5)
var times: [Double] = []
var nodes = 0
for _ in 0..<runs {
  let start = DispatchTime.now().uptimeNanoseconds
  var count = 0
  walkApp(AXUIElementCreateApplication(pid_t(pidValue)), &count)
  times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
  nodes = count
}
times.sort()
print("{\"nodes\": \(nodes), \"medianMs\": \(times[times.count / 2])}")
