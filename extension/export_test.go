package extension

// DropConnections ends every connection of the account from the server's side (tests of the
// extension's reconnection).
func (h *Hub) DropConnections(account string) {
	h.mu.Lock()
	cs := append([]*conn(nil), h.conns[account]...)
	h.mu.Unlock()
	for _, c := range cs {
		c.shutdown("dropped by the test")
	}
}
