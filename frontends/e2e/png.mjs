// A small PNG made in memory (no image tool needed): what the journeys upload as pictures and photographs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A size×size RGB PNG of one colour with a diagonal stripe, written into `dir`; returns its path. */
export function writePngIn(dir, name, [r, g, b], size = 32) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = [];
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 3); // filter 0
    for (let x = 0; x < size; x += 1) {
      const stripe = Math.abs(x - y) < 3;
      row[1 + x * 3] = stripe ? 255 : r;
      row[2 + x * 3] = stripe ? 255 : g;
      row[3 + x * 3] = stripe ? 255 : b;
    }
    rows.push(row);
  }
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  const path = join(dir, name);
  writeFileSync(path, png);
  return path;
}
