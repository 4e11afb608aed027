/**
 * Article texts of the sampling corpus, by language. Written for the corpus (no site copies), in
 * the registers real sites use: news, blog posts, documentation, product copy, forum threads.
 * Sites take different articles and different lengths from here, so no two corpus sites look
 * alike to the detector.
 */

export interface CorpusArticle {
  readonly slug: string;
  readonly title: string;
  readonly paragraphs: readonly string[];
}

export type CorpusLanguage = 'en' | 'de' | 'fr' | 'es' | 'zh' | 'ja' | 'th';

const en: CorpusArticle[] = [
  {
    slug: 'harbour-bridge-reopens',
    title: 'Harbour bridge reopens after two years of repairs',
    paragraphs: [
      'The harbour bridge reopened to traffic on Monday morning, ending a closure that forced commuters onto ferries and a long detour through the industrial district for almost two years.',
      'Engineers replaced more than four hundred steel cables and resurfaced the entire deck. The city council said the final bill came in slightly under the revised budget, although well above the first estimate published in the spring of the previous year.',
      'Cyclists gain a separated lane on the eastern side, protected by a low concrete barrier. Local shop owners near the southern ramp said they expect the return of passing trade to make a visible difference before the holiday season.',
      'Traffic planners will monitor congestion at the northern junction for the next six weeks and may adjust the signal timings if queues build up during the evening peak.',
    ],
  },
  {
    slug: 'sourdough-at-home',
    title: 'Sourdough at home: what actually matters',
    paragraphs: [
      'Most sourdough advice obsesses over flour brands and exotic equipment. In practice, three things decide whether a loaf turns out well: the activity of the starter, the temperature of the dough, and patience during the bulk fermentation.',
      'Feed the starter twice a day for a week before baking. It should double within six hours of a feeding and smell pleasantly sour, never like nail varnish. If it does not rise, move it somewhere warmer rather than changing the flour.',
      'Keep the dough around twenty-five degrees. A cold kitchen can stretch bulk fermentation from four hours to eight, which is fine as long as you judge the dough by its volume and bubbles instead of by the clock.',
      'Finally, bake hotter than feels comfortable. A preheated cast iron pot traps steam for the first twenty minutes and gives the crust its blistered, crackling finish.',
    ],
  },
  {
    slug: 'configuring-the-cache',
    title: 'Configuring the response cache',
    paragraphs: [
      'The response cache stores rendered responses in memory and, optionally, on disk. Each entry is keyed by the request method, the normalized path and the values of the headers listed in the vary option.',
      'Set maxEntries to bound memory use. When the limit is reached the least recently used entry is evicted first. Disk persistence is disabled by default because it adds latency to every write and most deployments restart rarely.',
      'Entries expire after ttlSeconds. A stale entry may still be served for staleWhileRevalidateSeconds while a background request refreshes it, which keeps tail latency low for popular pages.',
      'Use the purge endpoint to remove entries by prefix after a deployment. Purging is eventually consistent across replicas; expect up to a few seconds before every node has dropped the old responses.',
    ],
  },
  {
    slug: 'trail-running-shoes-review',
    title: 'Trail running shoes tested on wet limestone',
    paragraphs: [
      'We ran three hundred kilometres in six pairs of trail shoes over a wet autumn, mostly on limestone paths that turn slick after the first rain. Grip on wet rock separated the field far more than cushioning or weight.',
      'The softer rubber compounds held on sloping slabs but wore down quickly on the road sections between trails. Harder outsoles lasted longer yet felt nervous on every descent.',
      'Our favourite balanced both with a medium compound and deep lugs spaced widely enough to shed mud. It is not the lightest shoe in the test, but it was the only pair nobody wanted to give back.',
    ],
  },
  {
    slug: 'quarterly-results-cooperative',
    title: 'Regional cooperative reports steady quarter',
    paragraphs: [
      'The regional farming cooperative reported steady revenue for the third quarter, as higher prices for grain offset a weaker harvest of apples and pears in the eastern valleys.',
      'Members approved a plan to build a shared cold store near the rail depot. The board expects the facility to cut transport losses and let smaller farms sell later in the season, when prices are usually better.',
      'The cooperative also announced a training programme on soil health, funded jointly with the agricultural college, starting in January.',
    ],
  },
];

const de: CorpusArticle[] = [
  {
    slug: 'stadtbibliothek-neubau',
    title: 'Neubau der Stadtbibliothek öffnet im Frühjahr',
    paragraphs: [
      'Nach drei Jahren Bauzeit soll der Neubau der Stadtbibliothek im kommenden Frühjahr eröffnet werden. Das Gebäude am alten Güterbahnhof bietet Platz für rund zweihunderttausend Medien und zahlreiche Arbeitsplätze.',
      'Besonders stolz ist die Leitung auf die langen Öffnungszeiten: Mit einem Bibliotheksausweis können Besucherinnen und Besucher den Lesesaal künftig auch am Sonntag und bis spät in den Abend nutzen.',
      'Die Kosten stiegen während der Bauphase um knapp zwölf Prozent, vor allem wegen teurerer Baustoffe. Der Stadtrat hatte die Mehrkosten im Sommer mit großer Mehrheit bewilligt.',
    ],
  },
  {
    slug: 'fahrrad-wintercheck',
    title: 'Das Fahrrad winterfest machen',
    paragraphs: [
      'Wer auch im Winter mit dem Rad fährt, sollte vor dem ersten Frost ein paar Dinge prüfen. Am wichtigsten sind funktionierende Bremsen, eine helle Beleuchtung und Reifen mit ausreichend Profil.',
      'Streusalz greift die Kette an. Reinigen Sie sie nach Fahrten auf gesalzenen Straßen mit warmem Wasser und ölen Sie sie anschließend dünn ein. Ein Lappen und eine alte Zahnbürste genügen dafür völlig.',
      'Wer häufig auf vereisten Wegen unterwegs ist, kann über Spikereifen nachdenken. Sie sind laut, bieten aber auf Eis einen erstaunlich guten Halt.',
    ],
  },
  {
    slug: 'api-authentifizierung',
    title: 'Authentifizierung der Schnittstelle',
    paragraphs: [
      'Jede Anfrage an die Schnittstelle muss einen gültigen Zugriffsschlüssel im Kopf Authorization mitsenden. Schlüssel werden im Verwaltungsbereich erzeugt und können jederzeit widerrufen werden.',
      'Ein Schlüssel gilt für genau ein Projekt. Für automatisierte Abläufe empfehlen wir eigene Schlüssel mit eingeschränkten Rechten, damit ein verlorener Schlüssel nicht das ganze Konto gefährdet.',
      'Antwortet der Dienst mit dem Status 401, ist der Schlüssel unbekannt oder abgelaufen. Der Status 403 bedeutet dagegen, dass der Schlüssel gültig ist, ihm aber die nötige Berechtigung fehlt.',
      'Schlüssel sollten regelmäßig erneuert werden. Die Schnittstelle erlaubt zwei gleichzeitig gültige Schlüssel pro Projekt, sodass ein Wechsel ohne Unterbrechung möglich ist.',
    ],
  },
  {
    slug: 'wanderung-hochplateau',
    title: 'Rundwanderung über das Hochplateau',
    paragraphs: [
      'Die Rundwanderung beginnt am Parkplatz unterhalb der Burgruine und führt zunächst durch einen schattigen Buchenwald steil nach oben. Nach etwa einer Stunde öffnet sich der Blick über das weite Hochplateau.',
      'Oben wandert man gemütlich über Wiesen und an kleinen Mooren vorbei. Im Sommer blühen hier Orchideen; bitte bleiben Sie auf den markierten Wegen, denn das Gebiet steht unter Naturschutz.',
      'Für den Abstieg empfiehlt sich der Weg durch die Schlucht. Er ist bei Nässe rutschig, belohnt aber mit mehreren Wasserfällen und einer einfachen Hütte, die am Wochenende Getränke anbietet.',
    ],
  },
];

const fr: CorpusArticle[] = [
  {
    slug: 'marche-couvert-renove',
    title: 'Le marché couvert rouvre ses portes après rénovation',
    paragraphs: [
      'Après dix-huit mois de travaux, le marché couvert du centre-ville a rouvert samedi matin. Les commerçants ont retrouvé des étals plus larges, une meilleure ventilation et un éclairage entièrement refait.',
      'La municipalité a conservé la charpente métallique d’origine, classée depuis les années quatre-vingt. Les architectes ont choisi de la repeindre dans sa couleur verte d’époque, retrouvée sous plusieurs couches de peinture.',
      'Les horaires restent inchangés, mais une nocturne sera organisée chaque premier vendredi du mois avec des producteurs invités de la région.',
    ],
  },
  {
    slug: 'lampe-de-bureau-led',
    title: 'Lampe de bureau à LED orientable',
    paragraphs: [
      'Cette lampe de bureau associe un bras articulé en aluminium et une tête fine qui diffuse une lumière homogène, sans point lumineux gênant. Trois températures de couleur sont disponibles, du blanc chaud au blanc froid.',
      'Le variateur tactile mémorise le dernier réglage. Un port de recharge intégré dans le socle permet d’alimenter un téléphone pendant que vous travaillez.',
      'Livrée avec un adaptateur secteur et une pince de fixation pour les plateaux jusqu’à cinq centimètres d’épaisseur. Garantie de trois ans.',
    ],
  },
  {
    slug: 'guide-deploiement',
    title: 'Guide de déploiement',
    paragraphs: [
      'Le service se déploie sous forme de conteneur. Chaque instance lit sa configuration dans des variables d’environnement et écrit ses journaux sur la sortie standard, au format JSON.',
      'Avant une mise à jour, vérifiez que la migration de la base de données est compatible avec la version précédente : pendant le déploiement progressif, les anciennes et les nouvelles instances fonctionnent en même temps.',
      'En cas de problème, revenez à l’image précédente ; les migrations sont conçues pour être réversibles pendant au moins une version.',
    ],
  },
];

const es: CorpusArticle[] = [
  {
    slug: 'huerto-urbano-balcon',
    title: 'Cómo empezar un huerto urbano en el balcón',
    paragraphs: [
      'Un balcón orientado al sur basta para cultivar tomates, pimientos y hierbas aromáticas durante buena parte del año. Lo importante es elegir macetas profundas y un sustrato ligero que drene bien.',
      'Riega temprano por la mañana y evita mojar las hojas. En verano, una capa de paja sobre la tierra reduce la evaporación y protege las raíces del calor de la tarde.',
      'Empieza con pocas plantas y aprende de cada temporada. Anotar las fechas de siembra y cosecha en un cuaderno ayuda mucho más que cualquier aplicación.',
    ],
  },
  {
    slug: 'foro-bicicletas-cambio',
    title: 'Problema con el cambio trasero que salta',
    paragraphs: [
      'Desde hace una semana el cambio trasero salta de piñón cuando pedaleo fuerte en las subidas. Ya he limpiado la cadena y ajustado la tensión del cable, pero el problema sigue apareciendo.',
      'Respuesta: revisa la patilla del cambio. Un pequeño golpe basta para doblarla y entonces ningún ajuste del cable lo soluciona. En la tienda la enderezan en cinco minutos con la herramienta adecuada.',
      'Respuesta: también puede ser la cadena gastada. Mide el desgaste con un medidor; si supera el medio por ciento, cámbiala junto con el casete si este también está muy usado.',
    ],
  },
  {
    slug: 'festival-cine-verano',
    title: 'El festival de cine de verano anuncia su programa',
    paragraphs: [
      'El festival de cine al aire libre proyectará este verano más de cuarenta películas en la plaza mayor y en el patio del antiguo convento. La programación combina clásicos restaurados con estrenos de directores jóvenes.',
      'Las entradas se podrán comprar en taquilla una hora antes de cada sesión. Los organizadores recomiendan llevar una chaqueta, porque por la noche refresca bastante junto al río.',
    ],
  },
];

const zh: CorpusArticle[] = [
  {
    slug: 'city-metro-line',
    title: '地铁新线路本周末开通试运营',
    paragraphs: [
      '本市第六条地铁线路将于本周末开通试运营，全长约二十八公里，共设二十一座车站，连接老城区与东部新区。',
      '试运营期间，列车运行时间为早上六点至晚上十一点，高峰时段发车间隔约为四分钟。市民可使用交通卡或手机扫码进站。',
      '交通部门表示，新线路开通后，东部新区居民前往市中心的通勤时间预计将缩短二十分钟左右，周边道路的拥堵情况也有望得到缓解。',
      '部分车站出入口仍在施工，乘客出行前请留意车站公告，并按照现场指引通行。',
    ],
  },
  {
    slug: 'tea-brewing-guide',
    title: '如何冲泡一杯好绿茶',
    paragraphs: [
      '绿茶不宜用沸水冲泡。水温控制在八十度左右，既能释放茶香，又不会把嫩芽烫熟，使茶汤变得苦涩。',
      '建议先用少量热水温杯，再放入茶叶。第一泡时间不宜过长，大约一分钟即可，之后每一泡可以适当延长。',
      '好的绿茶汤色清澈，香气清新。冲泡三到四次后，茶味明显变淡，就可以更换新的茶叶了。',
    ],
  },
  {
    slug: 'product-thermos',
    title: '不锈钢保温杯五百毫升',
    paragraphs: [
      '双层不锈钢真空结构，保温时间长达十二小时，保冷时间可达二十四小时，适合通勤、旅行和户外运动使用。',
      '杯盖采用食品级材料，密封圈可拆卸清洗。杯身表面经过磨砂处理，手感舒适，不易留下指纹。',
      '提供黑色、白色和墨绿色三种颜色，支持七天无理由退换。',
    ],
  },
  {
    slug: 'library-reading-season',
    title: '图书馆启动秋季阅读季活动',
    paragraphs: [
      '市图书馆今天宣布启动秋季阅读季活动，将在未来两个月内举办三十多场讲座、读书会和亲子阅读活动。',
      '活动期间，读者每借阅五本书即可获得一枚纪念书签。图书馆还将延长周末开放时间，方便上班族前来阅读。',
    ],
  },
];

const ja: CorpusArticle[] = [
  {
    slug: 'autumn-leaves-report',
    title: '紅葉の見頃は来週から、山間部で色づき始める',
    paragraphs: [
      '気象会社の発表によると、今年の紅葉は平年よりやや遅く、山間部では来週から見頃を迎える見込みです。',
      '夏の猛暑と九月の少雨の影響で、色づきは場所によってばらつきがあります。標高の高い渓谷では、すでに鮮やかな赤や黄色が見られます。',
      '週末は観光地周辺の道路が混雑するため、公共交通機関の利用が呼びかけられています。',
    ],
  },
  {
    slug: 'wiki-castle-town',
    title: '城下町の歴史',
    paragraphs: [
      'この城下町は江戸時代初期に整備され、城を中心に武家屋敷、町人地、寺社地が計画的に配置された。',
      '明治時代に城は取り壊されたが、石垣と堀の一部は現在も残っており、市の史跡に指定されている。',
      '旧町人地には格子戸の町家が多く残り、近年は改修された建物がカフェや工房として利用されている。',
      '毎年秋には城下町の成り立ちを伝える祭りが開かれ、多くの見物客でにぎわう。',
    ],
  },
  {
    slug: 'rice-cooker-tips',
    title: '炊飯器でおいしくご飯を炊くコツ',
    paragraphs: [
      '米は最初の水を素早く捨てることが大切です。乾いた米は最初に触れた水を一気に吸うため、ぬかのにおいが移りやすくなります。',
      '研いだ後は三十分ほど浸水させると、芯まで水が行き渡り、ふっくらと炊き上がります。',
    ],
  },
];

const th: CorpusArticle[] = [
  {
    slug: 'night-market-guide',
    title: 'คู่มือเที่ยวตลาดกลางคืนริมแม่น้ำ',
    paragraphs: [
      'ตลาดกลางคืนริมแม่น้ำเปิดทุกวันศุกร์ถึงวันอาทิตย์ ตั้งแต่ห้าโมงเย็นจนถึงเที่ยงคืน มีร้านอาหารพื้นเมืองและสินค้าทำมือมากกว่าสองร้อยร้าน',
      'แนะนำให้มาถึงก่อนพระอาทิตย์ตก เพื่อหาที่จอดรถได้ง่ายและชมวิวแม่น้ำในช่วงเย็น อาหารที่ขึ้นชื่อคือข้าวเหนียวมะม่วงและปลาเผาเกลือ',
      'ผู้จัดงานขอความร่วมมือนักท่องเที่ยวนำถุงผ้ามาเอง เพื่อลดการใช้ถุงพลาสติกภายในตลาด',
    ],
  },
  {
    slug: 'temple-festival',
    title: 'งานประจำปีของวัดเก่าแก่ในเมือง',
    paragraphs: [
      'งานประจำปีของวัดจะจัดขึ้นในสัปดาห์หน้า มีการแสดงดนตรีไทย การประกวดโคมไฟ และตลาดนัดของชุมชน',
      'รายได้จากการจัดงานจะนำไปใช้บูรณะโบสถ์และห้องสมุดของโรงเรียนในวัด',
    ],
  },
];

export const CORPUS_ARTICLES: Readonly<Record<CorpusLanguage, readonly CorpusArticle[]>> = {
  en,
  de,
  fr,
  es,
  zh,
  ja,
  th,
};

/** Shared chrome words per language: site navigation, footer lines. */
export const CHROME_TEXT: Readonly<
  Record<
    CorpusLanguage,
    {
      home: string;
      about: string;
      contact: string;
      archive: string;
      footer: string;
      search: string;
    }
  >
> = {
  en: {
    home: 'Home',
    about: 'About us',
    contact: 'Contact',
    archive: 'Archive',
    footer:
      'All rights reserved. Independent publisher since 2009. Imprint, privacy policy and terms of use.',
    search: 'Search',
  },
  de: {
    home: 'Startseite',
    about: 'Über uns',
    contact: 'Kontakt',
    archive: 'Archiv',
    footer: 'Alle Rechte vorbehalten. Impressum, Datenschutzerklärung und Nutzungsbedingungen.',
    search: 'Suche',
  },
  fr: {
    home: 'Accueil',
    about: 'À propos',
    contact: 'Contact',
    archive: 'Archives',
    footer:
      'Tous droits réservés. Mentions légales, politique de confidentialité et conditions d’utilisation.',
    search: 'Rechercher',
  },
  es: {
    home: 'Inicio',
    about: 'Quiénes somos',
    contact: 'Contacto',
    archive: 'Archivo',
    footer:
      'Todos los derechos reservados. Aviso legal, política de privacidad y condiciones de uso.',
    search: 'Buscar',
  },
  zh: {
    home: '首页',
    about: '关于我们',
    contact: '联系我们',
    archive: '往期回顾',
    footer: '版权所有，未经许可不得转载。隐私政策与使用条款。',
    search: '搜索',
  },
  ja: {
    home: 'ホーム',
    about: '私たちについて',
    contact: 'お問い合わせ',
    archive: 'アーカイブ',
    footer: '無断転載を禁じます。プライバシーポリシーと利用規約。',
    search: '検索',
  },
  th: {
    home: 'หน้าแรก',
    about: 'เกี่ยวกับเรา',
    contact: 'ติดต่อ',
    archive: 'คลังข่าว',
    footer: 'สงวนลิขสิทธิ์ นโยบายความเป็นส่วนตัวและเงื่อนไขการใช้งาน',
    search: 'ค้นหา',
  },
};
