import postgres from 'postgres'
import net from 'node:net'
const srv = net.createServer(() => {}).listen(0, '127.0.0.1')
await new Promise(r => srv.once('listening', r))
const port = srv.address().port
const c2 = postgres(`postgres://x:y@127.0.0.1:${port}/db`, { connect_timeout: 1 })
const t=Date.now()
setInterval(()=>console.log('tick', Date.now()-t), 2000).unref()
try { await c2`select 1` } catch (e) { console.log(Date.now()-t, e.name, e.code, e.message) }
process.exit(0)
