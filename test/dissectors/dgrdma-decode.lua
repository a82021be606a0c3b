-- SPDX-License-Identifier: GPL-2.0-or-later
-- A Lua DG-RDMA dissector of the same decode scope as the plugin with its
-- analysis off (frame header, every message header with the flag word's
-- sub-fields, payload), written only as the benchmark's comparison point
-- (make bench-dissector). Not installed, not a product.
local p = Proto("dgrdmalua", "DG-RDMA (Lua, benchmark)")
local f = p.fields
f.src = ProtoField.uint16("dgrdmalua.src_id", "Source ID")
f.dst = ProtoField.uint16("dgrdmalua.dst_id", "Destination ID")
f.seq = ProtoField.uint16("dgrdmalua.frameseq", "Frame sequence")
f.ackstart = ProtoField.uint16("dgrdmalua.ackstart", "ACK start")
f.ackcount = ProtoField.uint8("dgrdmalua.ackcount", "ACK count")
f.flags = ProtoField.uint8("dgrdmalua.flags", "Flags", base.HEX)
f.txn = ProtoField.uint32("dgrdmalua.transactionid", "Transaction ID")
f.flagaddr = ProtoField.uint32("dgrdmalua.flagaddr", "Flag address", base.HEX)
f.flagvalue = ProtoField.uint32("dgrdmalua.flagvalue", "Flag value", base.HEX)
f.valid = ProtoField.bool("dgrdmalua.flag.valid", "Valid", 32, nil, 0x00000001)
f.length = ProtoField.uint32("dgrdmalua.flag.length", "Length", base.DEC, nil, 0x003FFFFE)
f.eof = ProtoField.bool("dgrdmalua.flag.eof", "EOF", 32, nil, 0x00400000)
f.trunc = ProtoField.bool("dgrdmalua.flag.truncated", "Truncated", 32, nil, 0x00800000)
f.opcode = ProtoField.uint32("dgrdmalua.flag.opcode", "Opcode", base.DEC, nil, 0xFF000000)
f.nmsgs = ProtoField.uint16("dgrdmalua.msgsintransaction", "Messages in transaction")
f.msgseq = ProtoField.uint16("dgrdmalua.msgsequence", "Message sequence")
f.dataaddr = ProtoField.uint32("dgrdmalua.dataaddr", "Data address", base.HEX)
f.datalen = ProtoField.uint16("dgrdmalua.datalen", "Data length")
f.mtype = ProtoField.uint8("dgrdmalua.type", "Message type")
f.nextmsg = ProtoField.uint8("dgrdmalua.nextmsg", "Next message")
f.payload = ProtoField.bytes("dgrdmalua.payload", "Payload")

function p.dissector(tvb, pinfo, tree)
	local len = tvb:reported_length_remaining()
	if len < 10 then return 0 end
	pinfo.cols.protocol = "DG-RDMA"
	local t = tree:add(p, tvb())
	t:add_le(f.src, tvb(0, 2))
	t:add_le(f.dst, tvb(2, 2))
	t:add_le(f.seq, tvb(4, 2))
	t:add_le(f.ackstart, tvb(6, 2))
	t:add_le(f.ackcount, tvb(8, 1))
	t:add(f.flags, tvb(9, 1))
	pinfo.cols.info = string.format("%u -> %u Seq=%u", tvb(0, 2):le_uint(), tvb(2, 2):le_uint(),
		tvb(4, 2):le_uint())
	local off = 10
	local more = tvb(9, 1):uint() ~= 0
	while more do
		off = 10 + math.floor((off - 10 + 7) / 8) * 8
		if off + 24 > len then break end
		local m = t:add(tvb(off, 24), "Message")
		m:add_le(f.txn, tvb(off, 4))
		m:add_le(f.flagaddr, tvb(off + 4, 4))
		local fv = m:add_le(f.flagvalue, tvb(off + 8, 4))
		fv:add_le(f.valid, tvb(off + 8, 4))
		fv:add_le(f.length, tvb(off + 8, 4))
		fv:add_le(f.eof, tvb(off + 8, 4))
		fv:add_le(f.trunc, tvb(off + 8, 4))
		fv:add_le(f.opcode, tvb(off + 8, 4))
		m:add_le(f.nmsgs, tvb(off + 12, 2))
		m:add_le(f.msgseq, tvb(off + 14, 2))
		m:add_le(f.dataaddr, tvb(off + 16, 4))
		m:add_le(f.datalen, tvb(off + 20, 2))
		m:add(f.mtype, tvb(off + 22, 1))
		m:add(f.nextmsg, tvb(off + 23, 1))
		local dl = tvb(off + 20, 2):le_uint()
		more = tvb(off + 23, 1):uint() ~= 0
		off = off + 24
		if off + dl > len then break end
		if dl > 0 then m:add(f.payload, tvb(off, dl)) end
		off = off + dl
	end
	return off
end

DissectorTable.get("ethertype"):add(0xF042, p)
