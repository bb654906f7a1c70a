import Foundation
import SocloadTestSupport
import XCTest

/// Small scripts run by Debian's python3 (the tools from PyPI: `PythonEnvironment`).
enum PythonTools {
    /// Prints how many colours a PNG (8-bit RGB or RGBA, not interlaced, as Chromium writes
    /// screenshots) has, reading it with the standard library alone (zlib).
    static let pngColourCount = """
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR':
                width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
            elif kind == b'IDAT':
                idat += body
            pos += 12 + length
        assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
        channels = 3 if colour == 2 else 4
        raw, stride = zlib.decompress(idat), width * channels
        previous, colours, at = bytearray(stride), set(), 0
        for _ in range(height):
            kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
            at += 1 + stride
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = previous[i]
                c = previous[i - channels] if i >= channels else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 2: line[i] = (line[i] + b) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            for x in range(0, stride, channels * 7):
                colours.add(bytes(line[x:x + 3]))
            previous = line
        print(len(colours))
        """
}
