// The typed bridge (`window.desktop`) is declared in src/shared/bridge.ts by the "Portal core"
// issue and implemented here by the "Desktop shell" issue. Until then the preload exposes nothing.
export {};
