"use strict";(()=>{var Y={jit:[120,55],inlined:[180,55],interpreted:[50,80],c1:[80,55],native:[20,80],cpp:[38,80],kernel:[280,45],unknown:[210,20]},N=[["jit","JIT"],["inlined","inlined"],["c1","C1"],["interpreted","interpreted"],["native","native"],["cpp","C++"],["kernel","kernel"],["unknown","unknown"]];function G(i){let e=2166136261;for(let t=0;t<i.length;t++)e^=i.charCodeAt(t),e=Math.imul(e,16777619);return e>>>0}function V(i,e,t){let[r,n]=Y[i]??Y.unknown,s=G(e)%13-6,o=(t.dark?38:62)+s;return`hsl(${r}, ${n}%, ${o}%)`}function me(i){let e=i.indexOf("("),t=e>0?i.slice(0,e):i,r=t.lastIndexOf("/"),s=t.slice(r+1).split(".");if(r>=0)return t.slice(0,r+1)+s[0];let o=s.length-1;for(let a=0;a<s.length-1;a++)if(/^[A-Z]/.test(s[a])){o=a;break}return s.slice(0,Math.max(1,o)).join(".")}function fe(i,e){return`hsl(${G(me(i))%360}, 50%, ${e.dark?40:65}%)`}function pe(i,e){let t=Math.max(-1,Math.min(1,i)),r=Math.round(Math.abs(t)*70);return Math.abs(t)<.02?e.dark?"hsl(0, 0%, 40%)":"hsl(0, 0%, 82%)":`hsl(${t>0?0:220}, ${20+r}%, ${e.dark?45-r/5:85-r/2.5}%)`}function H(i,e,t,r){let n=new Array(i.size);n[0]=t.dark?"hsl(210, 10%, 35%)":"hsl(210, 10%, 78%)";let s=new Map;for(let o=i.fn[0]>=0?0:1;o<i.size;o++){if(e==="diff"&&r){n[o]=pe(r[o],t);continue}let a=i.name(o),l=e==="kind"?i.kind[o]+" "+a:a,c=s.get(l);c===void 0&&(c=e==="kind"?V(i.kindName(o),a,t):fe(a,t),s.set(l,c)),n[o]=c}return n}function U(i=document.body){let e=getComputedStyle(i),t=(n,s)=>e.getPropertyValue(n).trim()||s,r=i.classList.contains("vscode-dark")||i.classList.contains("vscode-high-contrast")?!0:i.classList.contains("vscode-light")?!1:i.dataset.theme==="dark"||i.dataset.theme!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches;return{dark:r,background:t("--hl-bg",r?"#1e1e1e":"#ffffff"),foreground:t("--hl-fg",r?"#d4d4d4":"#1f1f1f"),muted:r?"hsl(0, 0%, 25%)":"hsl(0, 0%, 88%)",highlight:t("--hl-accent",r?"#ffffff":"#000000"),font:t("--hl-mono","ui-monospace, SFMono-Regular, Menlo, Consolas, monospace")}}function Z(i,e){let t=new Map;e.nodes.id.forEach((d,h)=>t.set(d,e.total>0?100*e.nodes.total[h]/e.total:0));let r=i.size,n=i.weights(),s=i.total,o=new Float64Array(r),a=new Float64Array(r),l=new Float64Array(r),c=0;for(let d=1;d<r;d++){let h=s>0?100*n[d]/s:0,f=t.get(i.id[d]);l[d]=f??-1,a[d]=h-(f??0),n[d]>0&&Math.abs(a[d])>c&&(c=Math.abs(a[d]))}for(let d=1;d<r;d++)o[d]=c>0?a[d]/c:0;return{scaled:o,deltaPct:a,basePct:l}}function u(i,e={},...t){let r=document.createElement(i);for(let[n,s]of Object.entries(e))s===void 0||s===!1||(n==="class"?r.className=String(s):n.startsWith("data-")?r.setAttribute(n,String(s)):n in r?r[n]=s:r.setAttribute(n,String(s)));for(let n of t)n!=null&&r.append(n);return r}function S(i,e,t=!1){let r=u("option",{value:i},e);return r.selected=t,r}function ee(i,e,t){let r=i.weights(),n=Math.max(16,i.size),s=new Int32Array(n),o=new Int32Array(n),a=new Float64Array(n),l=new Float64Array(n),c=0,d=0,h=(m,b,A)=>{s[c]=m,a[c]=b,l[c]=A,o[c]=i.depth[m],i.depth[m]>d&&(d=i.depth[m]),c++},f=i.path(e);for(let m=0;m<f.length-1;m++)h(f[m],0,1);let g=r[e]>0?1/r[e]:0,v=[e],p=[0];for(;v.length>0;){let m=v.pop(),b=p.pop(),A=m===e?1:r[m]*g;h(m,b,A);let k=i.children(m),T=b,F=[],I=0;for(let y=0;y<k.length;y++){let Q=r[k[y]]*g;if(Q<t)break;F.push(T),T+=Q,I=y+1}for(let y=I-1;y>=0;y--)v.push(k[y]),p.push(F[y])}let w=[];for(let m=0;m<=d;m++)w.push([]);for(let m=0;m<c;m++)w[o[m]].push(m);return{count:c,node:s,x:a,w:l,depth:o,maxDepth:d,rows:w}}function te(i,e,t){if(t<0||t>=i.rows.length)return-1;let r=i.rows[t],n=0,s=r.length-1;for(;n<=s;){let o=n+s>>1,a=r[o];if(e<i.x[a])s=o-1;else if(e>=i.x[a]+i.w[a])n=o+1;else return a}return-1}var $=class{constructor(e,t,r=18){this.onHover=null;this.onClick=null;this.onDoubleClick=null;this.onRendered=null;this.tree=null;this.zoomNode=0;this.layout=null;this.layoutWidth=0;this.colors=[];this.match=null;this.hovered=-1;this.selected=-1;this.frameRequested=!1;this.charWidth=7;this.height=0;this.scrollToRoot=!0;this.orientation=e,this.theme=t,this.rowHeight=r,this.element=document.createElement("div"),this.element.className="hl-flame",this.canvas=document.createElement("canvas"),this.element.appendChild(this.canvas),this.canvas.addEventListener("mousemove",n=>this.move(n)),this.canvas.addEventListener("mouseleave",n=>{this.setHovered(-1),this.onHover&&this.onHover(-1,n)}),this.canvas.addEventListener("click",n=>{let s=this.nodeAt(n);s>=0&&this.onClick&&this.onClick(s,n)}),this.canvas.addEventListener("dblclick",n=>{let s=this.nodeAt(n);s>=0&&this.onDoubleClick&&this.onDoubleClick(s,n)}),new ResizeObserver(()=>this.invalidate()).observe(this.element)}get zoom(){return this.zoomNode}get current(){return this.tree}get selection(){return this.selected}setTree(e,t){let r=this.tree&&this.zoomNode>0?this.tree.id[this.zoomNode]:0,n=this.tree&&this.selected>0?this.tree.id[this.selected]:0;this.tree=e,this.colors=t,this.zoomNode=Math.max(0,e.findId(r)),this.selected=n?e.findId(n):-1,this.hovered=-1,this.scrollToRoot=!0,this.invalidate()}setColors(e){this.colors=e,this.request()}setTheme(e){this.theme=e,this.request()}setMatch(e){this.match=e,this.request()}setSelected(e){this.selected=e,this.request()}zoomTo(e){this.zoomNode=e,this.invalidate()}setOrientation(e){this.orientation=e,this.scrollToRoot=!0,this.invalidate()}frames(){let e=this.tree;if(!e)return[];let t=this.ensureLayout(),r=this.canvas.getBoundingClientRect(),n=this.layoutWidth,s=[];for(let o=0;o<t.count;o++)s.push({node:t.node[o],name:e.name(t.node[o]),x:r.left+t.x[o]*n,y:r.top+this.rowY(t.depth[o]),width:t.w[o]*n,height:this.rowHeight-1});return s}draw(){let e=performance.now();this.frameRequested=!1;let t=this.tree;if(!t)return 0;let r=this.ensureLayout(),n=this.rowHeight,s=this.layoutWidth,o=this.element.parentElement,a=this.orientation==="flame"&&o&&this.element.dataset.fit!=="true"?o.clientHeight:0,l=Math.max((t.maxDepth+1)*n,a);this.height=l;let c=window.devicePixelRatio||1,d=this.canvas;(d.width!==Math.round(s*c)||d.height!==Math.round(l*c))&&(d.width=Math.round(s*c),d.height=Math.round(l*c),d.style.width=`${s}px`,d.style.height=`${l}px`);let h=d.getContext("2d");if(!h)return 0;h.setTransform(c,0,0,c,0,0),h.fillStyle=this.theme.background,h.fillRect(0,0,s,l),h.font=`12px ${this.theme.font}`,h.textBaseline="middle",this.charWidth=h.measureText("MMMMMMMMMM").width/10||7;let f=this.match,g=this.theme.dark?"#f0f0f0":"#111111";for(let p=0;p<r.count;p++){let w=r.node[p],m=r.x[p]*s,b=r.w[p]*s,A=this.rowY(r.depth[p]),k=f!==null&&w>0&&!f[w];if(h.fillStyle=k?this.theme.muted:this.colors[w],h.fillRect(m,A,Math.max(b-1,.5),n-1),b>this.charWidth*3+6){let T=this.fit(t.name(w),b-6);T&&(h.fillStyle=k?this.theme.foreground:g,h.globalAlpha=k?.5:1,h.fillText(T,m+3,A+n/2),h.globalAlpha=1)}}this.outline(h,this.selected,2),this.outline(h,this.hovered,1),this.scrollToRoot&&o&&(this.scrollToRoot=!1,this.orientation==="flame"&&this.element.dataset.fit!=="true"?o.scrollTop=o.scrollHeight:this.element.dataset.fit!=="true"&&(o.scrollTop=0));let v=performance.now()-e;return this.onRendered&&this.onRendered(v),v}outline(e,t,r){let n=this.layout;if(!(t<0||!n)){for(let s=0;s<n.count;s++)if(n.node[s]===t){e.strokeStyle=this.theme.highlight,e.lineWidth=r,e.strokeRect(n.x[s]*this.layoutWidth+.5,this.rowY(n.depth[s])+.5,Math.max(n.w[s]*this.layoutWidth-2,1),this.rowHeight-2);return}}}fit(e,t){let r=Math.floor(t/this.charWidth);return e.length<=r?e:r<3?"":e.slice(0,r-1)+"…"}rowY(e){return this.orientation==="flame"?this.height-(e+1)*this.rowHeight:e*this.rowHeight}ensureLayout(){let e=Math.max(1,this.element.clientWidth);return(!this.layout||this.layoutWidth!==e)&&(this.layout=ee(this.tree,this.zoomNode,.5/e),this.layoutWidth=e),this.layout}nodeAt(e){if(!this.tree)return-1;let t=this.ensureLayout(),r=this.canvas.getBoundingClientRect(),n=(e.clientX-r.left)/Math.max(1,this.layoutWidth),s=e.clientY-r.top,o=Math.floor(this.orientation==="flame"?(this.height-s)/this.rowHeight:s/this.rowHeight),a=te(t,n,o);return a<0?-1:t.node[a]}move(e){let t=this.nodeAt(e);this.setHovered(t),this.onHover&&this.onHover(t,e)}setHovered(e){e!==this.hovered&&(this.hovered=e,this.request())}invalidate(){this.layout=null,this.request()}request(){this.frameRequested||(this.frameRequested=!0,requestAnimationFrame(()=>this.draw()))}};function E(i){return Math.round(i).toLocaleString("en-US")}var ge=["ns","µs","ms","s"],ve=["B","KiB","MiB","GiB","TiB"];function ne(i,e,t){let r=Math.round(i),n=Math.abs(r);if(n<e)return`${r} ${t[0]}`;let s=0,o=1;for(;s+1<t.length&&n>=o*e;)o*=e,s++;let a=()=>{let c=Math.floor(n/o),d=n-c*o;return d<0?(c--,d+=o):d>=o&&(c++,d-=o),c*100+Math.floor((d*100+o/2)/o)},l=a();return l>=e*100&&s+1<t.length&&(o*=e,s++,l=a()),`${r<0?"-":""}${Math.floor(l/100)}.${String(l%100).padStart(2,"0")} ${t[s]}`}function C(i,e){return e==="nanoseconds"||e==="ns"?ne(i,1e3,ge):e==="bytes"?ne(i,1024,ve):`${E(i)} ${e==="samples"||e===""?"samples":e}`}function L(i){return`${i.toFixed(2)}%`}function X(i){return`${(i/1e9).toFixed(3)} s`}var M=class{constructor(e){this.maxDepth=0;this.functions=e.functions,this.kinds=e.kinds,this.unit=e.unit,this.measure=e.measure,this.parent=e.parent,this.fn=e.fn,this.kind=e.kind,this.line=e.line,this.id=e.id,this.selfCount=e.selfCount,this.totalCount=e.totalCount,this.selfValue=e.selfValue,this.totalValue=e.totalValue;let t=this.parent.length;this.depth=new Int32Array(t);let r=this.weights(),n=new Int32Array(t+1);for(let l=1;l<t;l++)this.depth[l]=this.depth[this.parent[l]]+1,r[l]>0&&(n[this.parent[l]+1]++,this.depth[l]>this.maxDepth&&(this.maxDepth=this.depth[l]));this.childStart=new Int32Array(t+1);for(let l=0;l<t;l++)this.childStart[l+1]=this.childStart[l]+n[l+1];this.childList=new Int32Array(this.childStart[t]);let s=this.childStart.slice(0,t);for(let l=1;l<t;l++)r[l]>0&&(this.childList[s[this.parent[l]]++]=l);let o=be(this.functions),a=(l,c)=>r[c]-r[l]||o[this.fn[l]]-o[this.fn[c]];for(let l=0;l<t;l++){let c=this.childStart[l],d=this.childStart[l+1];d-c>1&&this.childList.subarray(c,d).sort(a)}}get size(){return this.parent.length}weights(){return this.measure==="count"?this.totalCount:this.totalValue}selfWeights(){return this.measure==="count"?this.selfCount:this.selfValue}get total(){return this.weights()[0]}weightUnit(){return this.measure==="count"?"samples":this.unit}name(e){let t=this.fn[e];return t<0?"all":this.functions[t].name}kindName(e){return this.fn[e]<0?"":this.kinds[this.kind[e]]??"unknown"}children(e){return this.childList.subarray(this.childStart[e],this.childStart[e+1])}path(e){let t=[];for(let r=e;r>=0;r=this.parent[r])t.push(r);return t.reverse()}findId(e){if(e===0)return 0;for(let t=1;t<this.size;t++)if(this.id[t]===e&&this.weights()[t]>0)return t;return-1}};function be(i){let e=i.map((r,n)=>n);e.sort((r,n)=>i[r].name<i[n].name?-1:i[r].name>i[n].name?1:r-n);let t=new Int32Array(i.length+1);return e.forEach((r,n)=>t[r]=n),t}var _=class{constructor(e){this.parent=[-1];this.kind=[0];this.line=[0];this.best=[0];this.selfCount=[0];this.totalCount=[0];this.selfValue=[0];this.totalValue=[0];this.index=new Map;this.fn=[e]}child(e,t){let r=e+":"+t,n=this.index.get(r);if(n===void 0){n=this.parent.length,this.index.set(r,n),this.parent.push(e),this.fn.push(t);for(let s of[this.kind,this.line,this.best,this.selfCount,this.totalCount,this.selfValue,this.totalValue])s.push(0)}return n}offer(e,t,r,n){n>this.best[e]&&(this.best[e]=n,this.kind[e]=t.kind[r],this.line[e]=t.line[r])}build(e){return new M({functions:e.functions,kinds:e.kinds,unit:e.unit,measure:e.measure,parent:Int32Array.from(this.parent),fn:Int32Array.from(this.fn),kind:Uint8Array.from(this.kind),line:Int32Array.from(this.line),id:new Float64Array(this.parent.length),selfCount:Float64Array.from(this.selfCount),totalCount:Float64Array.from(this.totalCount),selfValue:Float64Array.from(this.selfValue),totalValue:Float64Array.from(this.totalValue)})}};function re(i,e){let t=new Uint8Array(i.size),r=[],n=i.weights();for(let s=1;s<i.size;s++){let o=i.fn[s]===e,a=t[i.parent[s]]===1;t[s]=o||a?1:0,o&&!a&&n[s]>0&&r.push(s)}return r}function ie(i,e){let t=new _(e),r=i.weights();for(let n of re(i,e)){let s=[[n,0]];for(;s.length>0;){let[o,a]=s.pop();t.selfCount[a]+=i.selfCount[o],t.totalCount[a]+=i.totalCount[o],t.selfValue[a]+=i.selfValue[o],t.totalValue[a]+=i.totalValue[o],t.offer(a,i,o,r[o]);for(let l of i.children(o))s.push([l,t.child(a,i.fn[l])])}}return t.build(i)}function se(i,e){let t=new _(e),r=i.weights();for(let n=1;n<i.size;n++)i.fn[n]===e&&(t.selfCount[0]+=i.selfCount[n],t.selfValue[0]+=i.selfValue[n]);for(let n of re(i,e)){let s=i.totalCount[n],o=i.totalValue[n];t.totalCount[0]+=s,t.totalValue[0]+=o,t.offer(0,i,n,r[n]);let a=0;for(let l=i.parent[n];l>0;l=i.parent[l])a=t.child(a,i.fn[l]),t.totalCount[a]+=s,t.totalValue[a]+=o,t.offer(a,i,l,r[n])}return t.build(i)}function we(i){let e=i.trim();if(!e)return null;let t=/^\/(.+)\/([a-z]*)$/.exec(e);if(t)try{let n=new RegExp(t[1],t[2].includes("i")?t[2]:t[2]+"i");return s=>n.test(s)}catch{return()=>!1}let r=e.toLowerCase();return n=>n.toLowerCase().includes(r)}function oe(i,e){let t=we(e);if(!t)return null;let r=new Uint8Array(i.functions.length);i.functions.forEach((h,f)=>r[f]=t(h.name)?1:0);let n=i.size,s=new Uint8Array(n),o=new Uint8Array(n),a=i.weights(),l=0,c=0;for(let h=1;h<n;h++){let f=r[i.fn[h]]===1,g=s[i.parent[h]]===1;s[h]=f||g?1:0,f&&!g&&(l+=i.totalCount[h],c+=i.totalValue[h])}for(let h=n-1;h>0;h--)if(s[h]&&a[h]>0&&(o[h]=1,r[i.fn[h]]))for(let f=i.parent[h];f>0&&!o[f];f=i.parent[f])o[f]=2;let d=i.measure==="count"?l:c;return{text:e,functions:r,bright:o,matched:d,matchedCount:l,matchedValue:c,percent:i.total>0?100*d/i.total:0}}var B=class{constructor(e){this.onWindow=null;this.maxThreads=16;this.data=null;this.threadInfo=[];this.window=null;this.drag=null;this.theme=e,this.element=document.createElement("div"),this.element.className="hl-timeline",this.canvas=document.createElement("canvas"),this.element.appendChild(this.canvas),this.canvas.addEventListener("mousedown",t=>{let r=this.bucketAt(t);r!==null&&(this.drag={start:r,end:r},t.preventDefault())}),window.addEventListener("mousemove",t=>{if(!this.drag)return;let r=this.bucketAt(t,!0);r!==null&&(this.drag.end=r),this.draw()}),window.addEventListener("mouseup",t=>{if(!this.drag)return;let r=this.bucketAt(t,!0);r!==null&&(this.drag.end=r);let{start:n,end:s}=this.drag;this.drag=null,this.setWindow(n===s?null:[Math.min(n,s),Math.max(n,s)+1],!0)}),new ResizeObserver(()=>this.draw()).observe(this.element)}setData(e,t){this.data=e,this.threadInfo=t,this.element.hidden=e===null,this.draw()}setTheme(e){this.theme=e,this.draw()}get selection(){return this.window}setWindow(e,t=!1){this.window=e,e&&this.data?(this.element.dataset.fromNs=String(e[0]*this.data.bucket_ns),this.element.dataset.toNs=String(e[1]*this.data.bucket_ns)):(delete this.element.dataset.fromNs,delete this.element.dataset.toNs),this.draw(),t&&this.onWindow&&this.onWindow(e)}bucketX(e){return this.canvas.getBoundingClientRect().left+170+e/(this.data?.buckets??1)*this.plotWidth()}plotWidth(){return Math.max(1,this.element.clientWidth-170-4)}bucketAt(e,t=!1){if(!this.data)return null;let r=this.canvas.getBoundingClientRect(),n=e.clientX-r.left-170,s=this.data.buckets,o=Math.floor(n/this.plotWidth()*s);return!t&&(o<0||o>=s)?null:(o=Math.max(0,Math.min(s-1,o)),o)}draw(){let e=this.data;if(!e)return;let t=e.threads.slice(0,this.maxThreads),r=Math.max(1,this.element.clientWidth),n=34+t.length*12+(e.threads.length>t.length?12:0)+2,s=window.devicePixelRatio||1,o=this.canvas;(o.width!==Math.round(r*s)||o.height!==Math.round(n*s))&&(o.width=Math.round(r*s),o.height=Math.round(n*s),o.style.width=`${r}px`,o.style.height=`${n}px`);let a=o.getContext("2d");if(!a)return;let l=this.theme,c=this.plotWidth(),d=e.buckets,h=c/d;a.setTransform(s,0,0,s,0,0),a.fillStyle=l.background,a.fillRect(0,0,r,n),a.font=`11px ${l.font}`,a.textBaseline="middle",a.fillStyle=l.foreground;let f=d*e.bucket_ns/1e9,g=ye(f/8);for(let m=0;m<=f;m+=g){let b=170+m/f*c;a.fillText(`${+m.toFixed(3)}s`,b+2,14/2),a.fillRect(b,2,1,10)}let v=(m,b,A,k,T)=>{a.fillStyle=l.foreground,a.fillText(T.length>24?T.slice(0,23)+"…":T,4,m+b/2);for(let F=0;F<d;F++){let I=A[F];if(I<=0)continue;let y=Math.sqrt(I/k);a.fillStyle=`hsla(${30-30*y}, 90%, ${l.dark?30+30*y:75-30*y}%, ${.35+.65*y})`,a.fillRect(170+F*h,m,Math.max(1,h-.5),b-1)}};v(14,20,e.all,Math.max(1,...e.all),"all threads");let p=1;for(let m of t)for(let b of m.weights)b>p&&(p=b);t.forEach((m,b)=>v(34+b*12,12,m.weights,p,this.threadInfo[m.thread]?.name||`thread ${m.thread}`)),e.threads.length>t.length&&(a.fillStyle=l.foreground,a.fillText(`+${e.threads.length-t.length} more threads`,4,34+t.length*12+12/2));let w=this.drag?[Math.min(this.drag.start,this.drag.end),Math.max(this.drag.start,this.drag.end)+1]:this.window;w&&(a.fillStyle=l.dark?"rgba(0,0,0,0.55)":"rgba(255,255,255,0.65)",a.fillRect(170,14,w[0]*h,n-14),a.fillRect(170+w[1]*h,14,(d-w[1])*h,n-14),a.strokeStyle=l.highlight,a.lineWidth=1,a.strokeRect(170+w[0]*h+.5,14+.5,(w[1]-w[0])*h-1,n-14-1))}};function ye(i){if(!(i>0))return 1;let e=Math.pow(10,Math.floor(Math.log10(i)));for(let t of[1,2,5,10])if(t*e>=i)return t*e;return 10*e}var q=class{constructor(e,t,r){this.source=e;this.host=t;this.tree=null;this.timelineData=null;this.baselineData=null;this.diff=null;this.match=null;this.mode="flame";this.colorMode="kind";this.selected=-1;this.sandwichFn=-1;this.seq=0;this.renders=0;this.firstDraw=null;this.ui={title:u("span",{class:"hl-title"}),event:u("select",{"data-role":"event",title:"event"}),measure:u("select",{"data-role":"measure",title:"weigh frames by"}),threads:u("details",{class:"hl-threads","data-role":"threads"}),threadSummary:u("summary",{},"threads: all"),threadList:u("div",{class:"hl-thread-list"}),mode:u("select",{"data-role":"mode",title:"view"}),color:u("select",{"data-role":"color",title:"colour by"}),search:u("input",{type:"search",placeholder:"search: text or /regex/","data-role":"search"}),match:u("span",{class:"hl-match","data-role":"match"}),reset:u("button",{"data-role":"reset",title:"reset zoom (Esc)"},"reset zoom"),themeButton:u("button",{"data-role":"theme",title:"theme: auto, light, dark"},"theme: auto"),windowLabel:u("span",{class:"hl-window","data-role":"window"}),clearWindow:u("button",{"data-role":"clear-window"},"whole profile"),timelineBox:u("div",{class:"hl-timeline-box"}),crumbs:u("nav",{class:"hl-crumbs","data-role":"crumbs"}),status:u("div",{class:"hl-status","data-role":"status"}),main:u("main",{class:"hl-main"}),sandwich:u("div",{class:"hl-sandwich",hidden:!0}),sandwichTitle:u("div",{class:"hl-sandwich-title","data-role":"sandwich-title"}),details:u("footer",{class:"hl-details","data-role":"details"}),tooltip:u("div",{class:"hl-tooltip","data-role":"tooltip",hidden:!0}),legend:u("div",{class:"hl-legend","data-role":"legend"}),error:u("div",{class:"hl-error",hidden:!0})};this.theme=U(),this.flame=new $("flame",this.theme),this.callers=new $("flame",this.theme),this.callees=new $("icicle",this.theme),this.timeline=new B(this.theme);let n=this.ui;n.threads.append(n.threadSummary,n.threadList),this.root=u("div",{class:"hl-app"},u("header",{class:"hl-toolbar"},n.title,n.event,n.measure,n.threads,n.mode,n.color,n.search,n.match,n.reset,n.themeButton),n.timelineBox,n.crumbs,n.status,n.main,n.details,n.legend,n.tooltip,n.error),n.timelineBox.append(this.timeline.element,u("div",{class:"hl-window-bar"},n.windowLabel,n.clearWindow)),n.sandwich.append(u("div",{class:"hl-pane-label"},"callers ↑"),this.callers.element,n.sandwichTitle,this.callees.element,u("div",{class:"hl-pane-label"},"callees ↓")),this.flame.onRendered=s=>{this.firstDraw||(this.firstDraw={at:performance.now(),ms:s})},this.callers.element.dataset.fit="true",this.callees.element.dataset.fit="true",n.main.append(this.flame.element,n.sandwich),r.append(this.root),this.wire()}async start(){try{this.info=await this.source.info();let e=this.info;this.query={event:e.initial.event,measure:e.initial.measure,threads:e.initial.threads.length>0?e.initial.threads:null,window:null},this.baselineData=await this.source.baseline(),this.fillPickers(),await this.refresh(!0)}catch(e){this.showError(e)}}frames(){return this.flame.frames()}sandwichFrames(){return{callers:this.callers.frames(),callees:this.callees.frames()}}bucketX(e){return this.timeline.bucketX(e)}currentTree(){return this.tree}drawNow(){return this.flame.draw()}zoomTo(e){this.zoom(e)}async setWindow(e){this.timeline.setWindow(e),this.query={...this.query,window:e},await this.refresh(!1)}async refresh(e){let t=++this.seq;document.body.dataset.state="loading";let r=this.query,n=await this.source.flame(r),s=e?await this.source.timeline(r):this.timelineData;if(t!==this.seq)return;this.tree=n,this.timelineData=s,e&&this.timeline.setData(s,this.info.threads),this.ui.timelineBox.hidden=s===null;let o=this.info.events[r.event];this.diff=this.baselineData&&this.baselineData.event===o.name&&this.baselineData.measure===r.measure?Z(n,this.baselineData):null,this.colorMode==="diff"&&!this.diff&&(this.colorMode="kind"),this.ui.color.value=this.colorMode,this.flame.setTree(n,this.colors(n)),this.selected=this.flame.selection,this.applySearch(),this.updateStatus(),this.updateCrumbs(),this.updateSandwich(),this.updateDetails(),this.renders++,document.body.dataset.renders=String(this.renders),document.body.dataset.state="ready"}colors(e){return H(e,this.colorMode,this.theme,this.diff?this.diff.scaled:null)}fillPickers(){let e=this.info,t=this.ui;t.title.textContent=e.title,t.title.title=`${e.format}${e.producer?" · "+e.producer:""}`,document.title=`${e.title} · hotlines`,t.event.replaceChildren(...e.events.map((r,n)=>S(String(n),`${r.name} (${C(r.total_value,r.unit)})`,n===this.query.event))),this.fillMeasure(),t.mode.replaceChildren(S("flame","flame graph"),S("icicle","icicle"),S("sandwich","sandwich")),t.color.replaceChildren(S("kind","colour: frame kind"),S("package","colour: package")),this.baselineData&&t.color.append(S("diff",`colour: diff vs ${this.baselineData.title}`)),t.threadList.replaceChildren(u("label",{},u("input",{type:"checkbox","data-thread":"all",checked:this.query.threads===null}),"all threads"),...e.threads.map((r,n)=>u("label",{},u("input",{type:"checkbox","data-thread":String(n),checked:this.query.threads?.includes(n)??!1}),`${r.name||"thread "+n}${r.tid!==void 0?` (${r.tid})`:""}`))),this.updateThreadSummary(),t.legend.replaceChildren(...N.map(([r,n])=>{let s=u("span",{class:"hl-swatch"});return s.style.background=V(r,"",this.theme),u("span",{class:"hl-legend-item"},s,n)}),u("span",{class:"hl-hint"},"click: zoom · double-click or Ctrl+click: open source · Esc: reset"))}fillMeasure(){let e=this.info.events[this.query.event],t=e.total_count!==e.total_value||e.unit!=="samples"&&e.unit!=="";this.ui.measure.replaceChildren(S("value",`weight: ${e.unit}`),S("count","weight: count")),this.ui.measure.hidden=!t,t||(this.query={...this.query,measure:"value"}),this.ui.measure.value=this.query.measure}wire(){let e=this.ui;e.event.addEventListener("change",()=>{this.query={...this.query,event:Number(e.event.value),window:null},this.timeline.setWindow(null),this.fillMeasure(),this.refresh(!0)}),e.measure.addEventListener("change",()=>{this.query={...this.query,measure:e.measure.value},this.refresh(!0)}),e.threadList.addEventListener("change",t=>{let r=t.target,n=[...e.threadList.querySelectorAll("input[data-thread]")];if(r.dataset.thread==="all"){for(let s of n)s.checked=s===r;this.query={...this.query,threads:null}}else{let s=n.filter(o=>o.checked&&o.dataset.thread!=="all").map(o=>Number(o.dataset.thread));n[0].checked=s.length===0,this.query={...this.query,threads:s.length>0?s:null}}this.updateThreadSummary(),this.refresh(!0)}),e.mode.addEventListener("change",()=>this.setMode(e.mode.value)),e.color.addEventListener("change",()=>{this.colorMode=e.color.value,this.tree&&this.flame.setColors(this.colors(this.tree)),this.updateSandwich()}),e.search.addEventListener("input",()=>this.applySearch()),e.reset.addEventListener("click",()=>this.zoom(0)),e.themeButton.addEventListener("click",()=>{let t={auto:"light",light:"dark",dark:"auto"},r=document.body.dataset.theme??"auto",n=t[r]??"auto";n==="auto"?delete document.body.dataset.theme:document.body.dataset.theme=n,e.themeButton.textContent=`theme: ${n}`,this.retheme()}),matchMedia("(prefers-color-scheme: dark)").addEventListener("change",()=>this.retheme()),new MutationObserver(()=>this.retheme()).observe(document.body,{attributes:!0,attributeFilter:["class"]}),e.clearWindow.addEventListener("click",()=>{this.setWindow(null)}),this.timeline.onWindow=t=>{this.query={...this.query,window:t},this.refresh(!1)},document.addEventListener("keydown",t=>{t.key==="Escape"&&document.activeElement!==e.search&&this.zoom(0),(t.key==="/"||t.key==="f"&&(t.ctrlKey||t.metaKey))&&document.activeElement!==e.search&&(t.preventDefault(),e.search.focus())}),this.flame.onHover=(t,r)=>this.tooltip(this.flame.current,t,r),this.flame.onClick=(t,r)=>{if(r.ctrlKey||r.metaKey){this.open(this.flame.current,t);return}this.selected=t,this.flame.setSelected(t),this.zoom(t)},this.flame.onDoubleClick=t=>{this.open(this.flame.current,t)};for(let t of[this.callers,this.callees])t.onHover=(r,n)=>this.tooltip(t.current,r,n),t.onClick=(r,n)=>{let s=t.current;s&&(n.ctrlKey||n.metaKey?this.open(s,r):r>0&&(this.sandwichFn=s.fn[r],this.updateSandwich()))},t.onDoubleClick=r=>{this.open(t.current,r)}}retheme(){this.theme=U();for(let e of[this.flame,this.callers,this.callees])e.setTheme(this.theme);this.timeline.setTheme(this.theme),this.tree&&this.flame.setColors(this.colors(this.tree)),this.updateSandwich(),this.fillLegendColors()}fillLegendColors(){this.ui.legend.querySelectorAll(".hl-swatch").forEach((t,r)=>t.style.background=V(N[r][0],"",this.theme))}setMode(e){this.mode=e,this.ui.mode.value=e;let t=e==="sandwich";this.flame.element.hidden=t,this.ui.sandwich.hidden=!t,this.ui.crumbs.hidden=t,t||this.flame.setOrientation(e),t&&this.sandwichFn<0&&this.tree&&this.selected>0&&(this.sandwichFn=this.tree.fn[this.selected]),this.updateSandwich()}zoom(e){this.flame.zoomTo(e),e===0&&(this.selected=-1,this.flame.setSelected(-1)),this.updateCrumbs(),this.updateDetails()}updateThreadSummary(){let e=this.query.threads;this.ui.threadSummary.textContent=e===null?"threads: all":e.length===1?`thread: ${this.info.threads[e[0]].name}`:`threads: ${e.length}`}applySearch(){let e=this.tree;if(!e)return;this.match=oe(e,this.ui.search.value);let t=this.match,r=this.ui.match;if(this.flame.setMatch(t?t.bright:null),!t){r.textContent="",delete r.dataset.pct,delete r.dataset.matched;return}r.dataset.pct=String(t.percent),r.dataset.matched=String(t.matched),r.textContent=`matched ${L(t.percent)} (${C(t.matched,e.weightUnit())})`}updateStatus(){let e=this.tree;if(!e)return;let t=this.query,r=this.info.events[t.event],n=this.ui.status,s=[`${r.name}: ${C(e.total,e.weightUnit())}`];if(t.measure==="value"&&r.unit!=="samples"&&s.push(`${E(e.totalCount[0])} samples`),t.threads&&s.push(`${t.threads.length} thread${t.threads.length===1?"":"s"}`),t.window&&this.timelineData){let o=this.timelineData.bucket_ns,a=`window ${X(t.window[0]*o)} – ${X(t.window[1]*o)}`;s.push(a),this.ui.windowLabel.textContent=a}else this.ui.windowLabel.textContent="drag across the timeline to pick a window";this.diff&&this.baselineData&&s.push(`baseline ${this.baselineData.title}`),n.textContent=s.join(" · "),n.dataset.total=String(e.total),n.dataset.count=String(e.totalCount[0]),n.dataset.value=String(e.totalValue[0]),this.ui.clearWindow.hidden=!t.window}updateCrumbs(){let e=this.flame.current;if(!e)return;let t=e.path(this.flame.zoom);this.ui.crumbs.replaceChildren(...t.map((r,n)=>{let s=u("button",{class:"hl-crumb","data-node":r,title:e.name(r)},ke(e.name(r)));return s.addEventListener("click",()=>this.zoom(r)),n===0?s:u("span",{}," › ",s)}))}updateSandwich(){if(this.mode!=="sandwich"||!this.tree)return;let e=this.tree,t=this.sandwichFn;if(t<0){this.ui.sandwichTitle.textContent="Select a frame (click it in the flame graph), then pick sandwich.";return}let r=se(e,t),n=ie(e,t);this.ui.sandwichTitle.textContent=`${e.functions[t].name} — total ${C(r.total,e.weightUnit())} (${L(e.total>0?100*r.total/e.total:0)}), self ${C(r.selfWeights()[0],e.weightUnit())}`,this.ui.sandwichTitle.dataset.total=String(r.total),this.callers.setTree(r,H(r,this.colorMode==="diff"?"kind":this.colorMode,this.theme,null)),this.callees.setTree(n,H(n,this.colorMode==="diff"?"kind":this.colorMode,this.theme,null)),this.callers.zoomTo(0),this.callees.zoomTo(0)}frameRef(e,t){let r=e.fn[t]>=0?e.functions[e.fn[t]]:{name:"all"},n={id:e.id[t],fn:e.fn[t],name:r.name,kind:e.kindName(t),line:e.line[t]};return"file"in r&&r.file&&(n.file=r.file),"status"in r&&r.status&&(n.status=r.status),"path"in r&&r.path&&(n.path=r.path),"why"in r&&r.why&&(n.why=r.why),e.fn[t]<0&&(n.why="the root stands for all samples"),n}updateDetails(){let e=this.tree,t=this.selected,r=this.ui.details;if(!e||t<=0||t>=e.size){r.replaceChildren(u("span",{class:"hl-hint"},"Click a frame to zoom and select it."));return}let n=this.frameRef(e,t),s=n.path?`${n.file??n.path}${n.line>0?":"+n.line:""}`:ae(n),o=u("button",{"data-role":"open-source",disabled:!n.path},"open source");o.addEventListener("click",()=>{this.open(e,t)});let a=u("button",{"data-role":"sandwich"},"sandwich");a.addEventListener("click",()=>{this.sandwichFn=e.fn[t],this.setMode("sandwich")}),r.replaceChildren(u("strong",{},n.name),u("span",{class:n.path?"hl-where":"hl-where hl-unresolved","data-role":"where"},s),o,a,u("span",{class:"hl-message","data-role":"message"}))}async open(e,t){if(!e||t<0)return;let r=this.frameRef(e,t),n=await this.host.openSource(r),s=this.ui.details.querySelector("[data-role=message]"),o=n.ok?`opening ${n.message}`:`cannot open ${r.name}: ${n.message}`;s?s.textContent=o:this.ui.details.replaceChildren(u("span",{class:"hl-message","data-role":"message"},o))}tooltip(e,t,r){let n=this.ui.tooltip,s=this.tree;if(!e||!s||t<0){n.hidden=!0;return}let o=s.total,a=e.weightUnit(),l=m=>L(o>0?100*m/o:0),c=e.weights()[t],d=e.selfWeights()[t],h=this.frameRef(e,t),f=[["total",`${C(c,a)} (${l(c)})`],["self",`${C(d,a)} (${l(d)})`]];if(e.measure==="value"&&e.unit!=="samples"&&f.push(["samples",`${E(e.totalCount[t])} total, ${E(e.selfCount[t])} self`]),h.kind&&f.push(["kind",h.kind]),f.push(["source",h.path?`${h.file??h.path}${h.line>0?":"+h.line:""}`:ae(h)]),this.diff&&e===s&&t>0){let m=this.diff.basePct[t];f.push(["baseline",m<0?"absent (new)":`${L(m)} → ${L(m+this.diff.deltaPct[t])}`])}n.replaceChildren(u("div",{class:"hl-tip-name"},h.name),u("table",{},...f.map(([m,b])=>u("tr",{},u("th",{},m),u("td",{},b))))),n.hidden=!1;let g=14,v=n.getBoundingClientRect(),p=r.clientX+g,w=r.clientY+g;p+v.width>window.innerWidth&&(p=Math.max(0,r.clientX-v.width-g)),w+v.height>window.innerHeight&&(w=Math.max(0,r.clientY-v.height-g)),n.style.left=`${p}px`,n.style.top=`${w}px`}showError(e){this.ui.error.hidden=!1,this.ui.error.textContent=`hotlines view: ${e instanceof Error?e.message:String(e)}`,document.body.dataset.state="error"}};function ae(i){return`${i.status==="external"?"external":"unresolved"}: ${i.why??"no source file"}`}function ke(i){let e=i.indexOf("("),t=e>0?i.slice(0,e):i,r=t.split(".");return r.length>2?r.slice(-2).join("."):t}function x(i){throw new Error(`not a hotlines flame document: ${i}`)}function R(i,e,t){return Array.isArray(i)||x(`${e} is not an array`),t!==void 0&&i.length!==t&&x(`${e} has ${i.length} entries, want ${t}`),i}function j(i){(typeof i!="object"||i===null)&&x("not an object");let e=i;e.format!=="hotlines-flame"&&x(`format is ${String(e.format)}`),e.version!==1&&x(`version ${String(e.version)} (this view reads 1)`),(!Array.isArray(e.events)||e.events.length===0)&&x("no events");let t=R(e.nodes?.parent,"nodes.parent").length;for(let n of["fn","kind","line","id"])R(e.nodes[n],`nodes.${n}`,t);e.nodes.parent.forEach((n,s)=>{(n>=s||n<-1)&&x(`node ${s} has parent ${n}`)});let r=R(e.rows?.event,"rows.event").length;for(let n of["node","thread","bucket","count"])R(e.rows[n],`rows.${n}`,r);e.rows.value!==void 0&&R(e.rows.value,"rows.value",r);for(let n=0;n<r;n++)(e.rows.node[n]>=t||e.rows.node[n]<-1)&&x(`row ${n} names node ${e.rows.node[n]}`),e.rows.event[n]>=e.events.length&&x(`row ${n} names event ${e.rows.event[n]}`),e.rows.thread[n]>=e.threads.length&&x(`row ${n} names thread ${e.rows.thread[n]}`),n>0&&e.rows.event[n]<e.rows.event[n-1]&&x("rows are not grouped by event");for(let n=0;n<t;n++)e.nodes.fn[n]>=e.functions.length&&x(`node ${n} names function ${e.nodes.fn[n]}`);return e}var D=class{constructor(e){this.doc=e;let t=e.events.length;this.eventStart=new Int32Array(t+1);let r=e.rows.event;for(let s=0;s<r.length;s++)this.eventStart[r[s]+1]++;for(let s=0;s<t;s++)this.eventStart[s+1]+=this.eventStart[s];let n=e.nodes.parent.length+1;this.parent=new Int32Array(n),this.fn=new Int32Array(n),this.kind=new Uint8Array(n),this.line=new Int32Array(n),this.id=new Float64Array(n),this.parent[0]=-1,this.fn[0]=-1;for(let s=1;s<n;s++)this.parent[s]=e.nodes.parent[s-1]+1,this.fn[s]=e.nodes.fn[s-1],this.kind[s]=e.nodes.kind[s-1],this.line[s]=e.nodes.line[s-1],this.id[s]=e.nodes.id[s-1]}async info(){let e=this.doc;return{title:e.title,format:e.profile.format,producer:e.profile.producer,events:e.events,threads:e.threads,initial:e.initial,timeline:e.timeline,link:e.link,baseline:e.baseline?{title:e.baseline.title,event:e.baseline.event}:null}}async flame(e){return this.flameSync(e)}flameSync(e){let t=this.doc,r=t.rows,n=this.parent.length,s=new Float64Array(n),o=new Float64Array(n),a=this.threadFilter(e),l=r.value??r.count,c=0,d=0,[h,f]=e.window??[-1/0,1/0];for(let p=this.eventStart[e.event],w=this.eventStart[e.event+1];p<w;p++){if(a&&!a[r.thread[p]])continue;let m=r.bucket[p];if(m<h||m>=f)continue;let b=r.count[p],A=l[p];c+=b,d+=A;let k=r.node[p]+1;s[k]+=b,o[k]+=A}let g=s.slice(),v=o.slice();for(let p=n-1;p>0;p--)g[this.parent[p]]+=g[p],v[this.parent[p]]+=v[p];return g[0]=c,v[0]=d,new M({functions:t.functions,kinds:t.kinds,unit:t.events[e.event].unit,measure:e.measure,parent:this.parent,fn:this.fn,kind:this.kind,line:this.line,id:this.id,selfCount:s,totalCount:g,selfValue:o,totalValue:v})}async timeline(e){let t=this.doc,r=t.rows;if(!t.timeline||!t.events[e.event].timed)return null;let n=t.timeline.buckets,s=t.threads.length,o=this.threadFilter(e),a=e.measure==="count"?r.count:r.value??r.count,l=new Map,c=new Float64Array(n);for(let h=this.eventStart[e.event],f=this.eventStart[e.event+1];h<f;h++){let g=r.thread[h];if(o&&!o[g])continue;let v=l.get(g);v||l.set(g,v=new Float64Array(n)),v[r.bucket[h]]+=a[h],c[r.bucket[h]]+=a[h]}let d=[...l.entries()].filter(([h])=>h<s).map(([h,f])=>({thread:h,weights:f,total:f.reduce((g,v)=>g+v,0)})).sort((h,f)=>f.total-h.total||h.thread-f.thread);return{buckets:n,bucket_ns:t.timeline.bucket_ns,all:c,threads:d}}async baseline(){return this.doc.baseline??null}threadFilter(e){if(!e.threads)return null;let t=new Uint8Array(this.doc.threads.length);for(let r of e.threads)t[r]=1;return t}};function xe(i,e){if(!i.path||e==="none")return null;let t=encodeURI(i.path.replace(/\\/g,"/")).replace(/#/g,"%23").replace(/\?/g,"%3F"),r=t.startsWith("/")?t:"/"+t;return e==="vscode"?`vscode://file${r}${i.line>0?`:${i.line}`:""}`:`file://${r}${i.line>0?`#L${i.line}`:""}`}var O=class{constructor(e){this.scheme=e}async openSource(e){if(this.scheme==="none")return{ok:!1,message:"source links are off (exported with --link none)"};let t=xe(e,this.scheme);if(!t)return{ok:!1,message:e.why||"no source file for this frame"};let r=new CustomEvent("hotlines:navigate",{detail:{url:t,frame:e},cancelable:!0});if(window.dispatchEvent(r)){let n=document.createElement("a");n.href=t,this.scheme==="file"&&(n.target="_blank"),n.rel="noopener",document.body.appendChild(n),n.click(),n.remove()}return{ok:!0,message:t}}},K=null;function J(){return K||(K=window.acquireVsCodeApi?window.acquireVsCodeApi():{postMessage:i=>window.parent.postMessage(i,"*")}),K}var P=class{async openSource(e){return J().postMessage({type:"openSource",frame:e}),{ok:!0,message:`asked the editor to open ${e.file??e.name}`}}},z=class{constructor(e){this.url=e}async openSource(e){if(e.fn<0)return{ok:!1,message:e.why??"no source file for this frame"};let t=await fetch(this.url,{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify({frame:{fn:e.fn,line:e.line}})}),r=await t.json().catch(()=>({}));return{ok:t.ok,message:r.message??(t.ok?"opened in the editor":`the server answered ${t.status}`)}}};function le(i){return async(e,t)=>{let r=await fetch(i,{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify({method:e,params:t})});if(!r.ok)throw new Error(`${e}: the server answered ${r.status}`);return r.json()}}function he(){let i=1,e=new Map;return window.addEventListener("message",t=>{let r=t.data;if(r?.type!=="answer"||typeof r.id!="number")return;let n=e.get(r.id);n&&(e.delete(r.id),r.error?n.reject(new Error(r.error)):n.resolve(r.result))}),(t,r)=>new Promise((n,s)=>{let o=i++;e.set(o,{resolve:n,reject:s}),J().postMessage({type:"query",id:o,method:t,params:r})})}function Ae(i){let e=i.nodes;return new M({functions:i.functions,kinds:i.kinds,unit:i.unit,measure:i.measure,parent:Int32Array.from(e.parent),fn:Int32Array.from(e.fn),kind:Uint8Array.from(e.kind),line:Int32Array.from(e.line),id:Float64Array.from(e.id),selfCount:Float64Array.from(e.self_count),totalCount:Float64Array.from(e.total_count),selfValue:Float64Array.from(e.self_value),totalValue:Float64Array.from(e.total_value)})}var W=class{constructor(e){this.send=e}async info(){return await this.send("info",{})}async flame(e){return Ae(await this.send("flame",e))}async timeline(e){let t=await this.send("timeline",e);return t?{buckets:t.buckets,bucket_ns:t.bucket_ns,all:Float64Array.from(t.all),threads:t.threads.map(r=>({thread:r.thread,total:r.total,weights:Float64Array.from(r.weights)}))}:null}async baseline(){return await this.send("baseline",{})}};var de=`/* The view's styles. Colours come from --hl-* variables: light by default, dark under
   prefers-color-scheme or data-theme=dark, and VS Code's theme variables in a webview. */
:root {
  --hl-bg: #ffffff;
  --hl-fg: #1f1f1f;
  --hl-panel: #f3f3f3;
  --hl-border: #d0d0d0;
  --hl-accent: #005fb8;
  --hl-mono: ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace;
  --hl-sans: system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  body:not([data-theme='light']) {
    --hl-bg: #1e1e1e;
    --hl-fg: #d4d4d4;
    --hl-panel: #252526;
    --hl-border: #3c3c3c;
    --hl-accent: #4daafc;
  }
}
body[data-theme='dark'] {
  --hl-bg: #1e1e1e;
  --hl-fg: #d4d4d4;
  --hl-panel: #252526;
  --hl-border: #3c3c3c;
  --hl-accent: #4daafc;
}
body.vscode-light,
body.vscode-dark,
body.vscode-high-contrast {
  --hl-bg: var(--vscode-editor-background);
  --hl-fg: var(--vscode-editor-foreground);
  --hl-panel: var(--vscode-sideBar-background, var(--vscode-editor-background));
  --hl-border: var(--vscode-panel-border, #80808060);
  --hl-accent: var(--vscode-focusBorder);
  --hl-mono: var(--vscode-editor-font-family);
  --hl-sans: var(--vscode-font-family);
}
html,
body {
  margin: 0;
  height: 100%;
  background: var(--hl-bg);
  color: var(--hl-fg);
  font: 13px var(--hl-sans);
}
.hl-app {
  display: flex;
  flex-direction: column;
  height: 100vh;
}
.hl-toolbar {
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  align-items: center;
  padding: 6px 8px;
  background: var(--hl-panel);
  border-bottom: 1px solid var(--hl-border);
}
.hl-title {
  font-weight: 600;
  margin-right: 6px;
}
.hl-toolbar select,
.hl-toolbar input,
.hl-toolbar button,
.hl-details button,
.hl-window-bar button,
.hl-threads summary {
  font: inherit;
  color: var(--hl-fg);
  background: var(--hl-bg);
  border: 1px solid var(--hl-border);
  border-radius: 3px;
  padding: 2px 6px;
}
.hl-toolbar input[type='search'] {
  min-width: 16em;
}
.hl-match {
  font-family: var(--hl-mono);
}
.hl-threads {
  position: relative;
}
.hl-threads summary {
  cursor: pointer;
  list-style: none;
}
.hl-thread-list {
  position: absolute;
  z-index: 10;
  max-height: 50vh;
  overflow: auto;
  background: var(--hl-panel);
  border: 1px solid var(--hl-border);
  padding: 4px 8px;
  min-width: 18em;
}
.hl-thread-list label {
  display: block;
  white-space: nowrap;
}
.hl-timeline-box {
  border-bottom: 1px solid var(--hl-border);
  padding: 2px 0;
}
.hl-timeline canvas {
  display: block;
  cursor: crosshair;
}
.hl-window-bar {
  display: flex;
  gap: 8px;
  align-items: center;
  padding: 2px 8px;
  font-size: 12px;
}
.hl-crumbs,
.hl-status {
  padding: 3px 8px;
  font-size: 12px;
}
.hl-crumb {
  font: inherit;
  background: none;
  border: none;
  color: var(--hl-accent);
  cursor: pointer;
  padding: 0;
}
.hl-main {
  flex: 1;
  overflow: auto;
  position: relative;
}
.hl-flame canvas {
  display: block;
}
.hl-sandwich-title {
  font-weight: 600;
  padding: 4px 8px;
  border-top: 1px solid var(--hl-border);
  border-bottom: 1px solid var(--hl-border);
}
.hl-pane-label {
  font-size: 11px;
  padding: 2px 8px;
  opacity: 0.7;
}
.hl-details {
  display: flex;
  gap: 10px;
  align-items: center;
  padding: 4px 8px;
  background: var(--hl-panel);
  border-top: 1px solid var(--hl-border);
  min-height: 24px;
}
.hl-where {
  font-family: var(--hl-mono);
}
.hl-unresolved {
  color: #c75000;
}
.hl-legend {
  display: flex;
  flex-wrap: wrap;
  gap: 10px;
  padding: 3px 8px;
  font-size: 11px;
}
.hl-swatch {
  display: inline-block;
  width: 10px;
  height: 10px;
  margin-right: 3px;
  vertical-align: middle;
}
.hl-hint {
  opacity: 0.7;
}
.hl-tooltip {
  position: fixed;
  z-index: 20;
  pointer-events: none;
  background: var(--hl-panel);
  color: var(--hl-fg);
  border: 1px solid var(--hl-border);
  border-radius: 4px;
  padding: 6px 8px;
  font-size: 12px;
  max-width: 560px;
  box-shadow: 0 2px 8px rgba(0, 0, 0, 0.25);
}
.hl-tip-name {
  font-family: var(--hl-mono);
  font-weight: 600;
  word-break: break-all;
  margin-bottom: 4px;
}
.hl-tooltip th {
  text-align: left;
  font-weight: normal;
  opacity: 0.7;
  padding-right: 8px;
}
.hl-error {
  padding: 8px;
  color: #c00000;
}
[hidden] {
  display: none !important;
}
`;function ue(i){let e=document.getElementById(i);return e?JSON.parse(e.textContent??"null"):void 0}async function Te(){let i=ue("hotlines-data");if(i!==void 0){let r=j(i);return[new D(r),new O(r.link.scheme)]}let e=ue("hotlines-config")??{channel:"message"},t=e.open?new z(e.open):new P;if(e.document){let r=await fetch(e.document);if(!r.ok)throw new Error(`${e.document}: ${r.status}`);return[new D(j(await r.json())),t]}return e.query?[new W(le(e.query)),t]:[new W(he()),t]}function ce(){let i=document.createElement("style");i.textContent=de,document.head.appendChild(i);let e=document.createElement("div");e.className="hl-mount",document.body.appendChild(e);let t=Te().then(async([r,n])=>{let s=new q(r,n,e);window.hotlines&&(window.hotlines.app=s),await s.start()},r=>{e.textContent=`hotlines view: ${r instanceof Error?r.message:String(r)}`,document.body.dataset.state="error"});window.hotlines={app:void 0,ready:t}}document.readyState==="loading"?document.addEventListener("DOMContentLoaded",ce):ce();})();
