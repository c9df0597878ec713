import type { CookieJar, CookieOptions } from '../../../src/renderer/src/lib/cookies';

/** A Storage of its own: one browser tab's session storage, separate from the others. */
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

/** A cookie store two "tabs" can share, keeping the attributes each cookie was written with. */
export class MemoryCookieJar implements CookieJar {
  readonly cookies = new Map<string, { value: string; options: CookieOptions }>();
  get(name: string) {
    return this.cookies.get(name)?.value ?? null;
  }
  set(name: string, value: string, options: CookieOptions = {}) {
    this.cookies.set(name, { value, options });
  }
  remove(name: string) {
    this.cookies.delete(name);
  }
  names() {
    return [...this.cookies.keys()];
  }
  async read(name: string) {
    return this.get(name);
  }
  async settle() {}
}
