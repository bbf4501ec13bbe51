// Switches the keyboard layout for the real-Mac suite's non-US typing test, through the Text Input
// Sources API (HIToolbox TextInputSources.h): enables and selects an installed layout by its id.
//
//   swiftc -O -o input-source test/macos/input-source.swift
//   ./input-source select com.apple.keylayout.German   # prints the id of the layout it replaced
import Carbon
import Foundation

func identifier(_ source: TISInputSource) -> String {
  guard let raw = TISGetInputSourceProperty(source, kTISPropertyInputSourceID) else { return "" }
  return Unmanaged<CFString>.fromOpaque(raw).takeUnretainedValue() as String
}

let arguments = CommandLine.arguments
guard arguments.count == 3, arguments[1] == "select" else {
  FileHandle.standardError.write("usage: input-source select <input source id>\n".data(using: .utf8)!)
  exit(2)
}
let filter = [kTISPropertyInputSourceID as String: arguments[2]] as CFDictionary
guard let list = TISCreateInputSourceList(filter, true)?.takeRetainedValue() as? [TISInputSource], let wanted = list.first else {
  FileHandle.standardError.write("no input source \(arguments[2])\n".data(using: .utf8)!)
  exit(3)
}
print(identifier(TISCopyCurrentKeyboardLayoutInputSource().takeRetainedValue()))
_ = TISEnableInputSource(wanted)
exit(TISSelectInputSource(wanted) == noErr ? 0 : 4)
