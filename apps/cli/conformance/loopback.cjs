// Preloaded (`node -r`) into servers that listen on every interface when given
// only a port (server-everything): binds them to 127.0.0.1 instead.
const net = require("node:net");

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function loopbackListen(...args) {
  if (typeof args[0] === "number" || (typeof args[0] === "string" && /^\d+$/.test(args[0]))) {
    const [port, ...rest] = args;
    const callback = typeof rest.at(-1) === "function" ? rest.at(-1) : undefined;
    return listen.call(this, Number(port), "127.0.0.1", ...(callback ? [callback] : []));
  }
  return listen.apply(this, args);
};
