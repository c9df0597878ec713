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

/**
 * The script a page rendered at build time runs right after its `#root`, before the first paint:
 * a visitor with a stored session (the refresh token's cookie, or this tab's access token) is not
 * shown the signed-out page they would leave a moment later, but the session gate's first screen
 * while the session is restored, and the page is then rendered afresh instead of hydrated (the
 * attribute goes). A visitor with nothing stored keeps the page as rendered, unless the address
 * has a query or a fragment the build could not know (`?next=`, `#sso_code=`): the page then stays
 * on screen while the client renders it afresh for that address, instead of hydrating a mismatch.
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
  "')}}catch(e){}})();";
