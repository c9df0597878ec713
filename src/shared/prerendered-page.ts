import { secureStorageKeys } from './storage-keys.js';

/**
 * What a public page rendered at build time carries beside its HTML (scripts/prerender-public-pages.ts
 * writes it, the renderer's main.tsx reads it).
 */

/** The attribute on `#root` of a page rendered at build time that the client may hydrate. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';
/** The id of the JSON holding the plans the landing page was rendered with. */
export const PRERENDERED_PLANS_ID = 'prerendered-plans';
/** The template holding the session gate's first screen ('Initializing secure session...'). */
export const RESTORING_TEMPLATE_ID = 'restoring-session';
/** The template holding the page's module scripts, which the boot script loads after the first paint. */
export const PAGE_SCRIPTS_TEMPLATE_ID = 'page-scripts';

/**
 * Puts the page's scripts in the document once it has painted its first content (the Paint Timing
 * API's entry), so nothing the page paints with waits for them (scripts/paint-before-scripts.ts).
 * A page that cannot paint now (a tab opened in the background, a browser without the entry) gets
 * them at once: there is no paint to keep them from.
 */
const LOAD_SCRIPTS_AFTER_PAINT =
  "(function(){var t=document.getElementById('" +
  PAGE_SCRIPTS_TEMPLATE_ID +
  "');if(!t)return;var done=false;" +
  'function load(){if(done)return;done=true;document.head.appendChild(document.importNode(t.content,true))}' +
  "document.addEventListener('visibilitychange',load);" +
  "try{if(document.visibilityState==='hidden'||PerformanceObserver.supportedEntryTypes.indexOf('paint')<0)return load();" +
  "new PerformanceObserver(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();load()}})" +
  ".observe({type:'paint',buffered:true})}catch(e){load()}})();";

/**
 * The script a page rendered at build time runs after its `#root` and its templates, before the
 * first paint. First, a visitor with a stored session (the refresh token's cookie, or this tab's access token) is not
 * shown the signed-out page they would leave a moment later, but the session gate's first screen
 * while the session is restored, and the page is then rendered afresh instead of hydrated (the
 * attribute goes). A visitor with nothing stored keeps the page as rendered, unless the address
 * has a query or a fragment the build could not know (`?next=`, `#sso_code=`): the page then stays
 * on screen while the client renders it afresh for that address, instead of hydrating a mismatch.
 * Then it loads the page's scripts once the page has painted (`LOAD_SCRIPTS_AFTER_PAINT`).
 *
 * The server's Content Security Policy allows exactly this text by its hash (the desktop shell
 * loads no page rendered ahead of time), so keep it plain ES5 and change it only here.
 */
export const SESSION_BOOT_SCRIPT =
  "(function(){try{var r=document.getElementById('root'),t=document.getElementById('" +
  RESTORING_TEMPLATE_ID +
  "');if(!r||!t)return;" +
  "var c=document.cookie.split(';').some(function(p){return p.replace(/^\\s+/,'').indexOf('" +
  secureStorageKeys.refreshToken +
  "=')===0});" +
  "if(c||sessionStorage.getItem('" +
  secureStorageKeys.accessToken +
  "')!==null){r.removeAttribute('" +
  PRERENDERED_ATTRIBUTE +
  "');r.innerHTML=t.innerHTML}else if(location.search||location.hash){r.removeAttribute('" +
  PRERENDERED_ATTRIBUTE +
  "')}}catch(e){}})();" +
  LOAD_SCRIPTS_AFTER_PAINT;
